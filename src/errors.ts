// Typed errors with a stable code and HTTP status. The HTTP layer maps them to PostHog's
// {type, code, detail, attr} body in exactly one place (http/error-handler.ts).
//
// Two families, as PostHog's hogql/errors.py separates ExposedHogQLError from InternalHogQLError:
// an ApiError is exposed (its detail is written for the client, whatever its status); an
// InternalError is ours (a bug or a broken invariant) and only its generic 500 is ever shown.

export type ErrorType =
  | 'validation_error'
  | 'invalid_request'
  | 'authentication_error'
  | 'throttled_error'
  | 'server_error';

export interface ErrorBody {
  type: ErrorType;
  code: string;
  detail: string;
  attr: string | null;
  /** Only where PostHog adds it (a HogQL query's 400: `hogql_metadata`). */
  extra?: Record<string, unknown>;
}

export class ApiError extends Error {
  /** Its detail is meant for the client. */
  readonly expose = true;

  constructor(
    readonly status: number,
    readonly type: ErrorType,
    readonly code: string,
    readonly detail: string,
    readonly attr: string | null = null,
  ) {
    super(detail);
    this.name = new.target.name;
  }

  toBody(): ErrorBody {
    return { type: this.type, code: this.code, detail: this.detail, attr: this.attr };
  }
}

export class ValidationError extends ApiError {
  constructor(detail: string, attr: string | null, code = 'invalid_input') {
    super(400, 'validation_error', code, detail, attr);
  }
}

export class ParseError extends ApiError {
  constructor(detail: string) {
    super(400, 'invalid_request', 'parse_error', detail);
  }
}

export class NotAuthenticatedError extends ApiError {
  constructor() {
    super(401, 'authentication_error', 'not_authenticated', 'Authentication credentials were not provided.');
  }
}

export class AuthenticationFailedError extends ApiError {
  constructor(detail: string) {
    super(401, 'authentication_error', 'authentication_failed', detail);
  }
}

export class PermissionDeniedError extends ApiError {
  constructor(detail = 'You do not have permission to perform this action.') {
    super(403, 'authentication_error', 'permission_denied', detail);
  }
}

export class NotFoundError extends ApiError {
  constructor(detail = 'Not found.') {
    super(404, 'invalid_request', 'not_found', detail);
  }
}

export class MethodNotAllowedError extends ApiError {
  constructor(
    method: string,
    /** PostHog answers a refused hard delete of insights and dashboards with no body at all. */
    readonly withoutBody = false,
  ) {
    super(405, 'invalid_request', 'method_not_allowed', `Method "${method}" not allowed.`);
  }
}

export class ConflictError extends ApiError {
  constructor(detail: string) {
    // PostHog's handler maps classes it does not know to server_error; clients match on code.
    super(409, 'server_error', 'conflict', detail);
  }
}

export class PayloadTooLargeError extends ApiError {
  constructor(limitBytes: number) {
    super(413, 'invalid_request', 'request_too_large', `Request body is larger than ${limitBytes} bytes.`);
  }
}

export class UnsupportedMediaTypeError extends ApiError {
  constructor(mediaType: string) {
    super(415, 'invalid_request', 'unsupported_media_type', `Unsupported media type "${mediaType}" in request.`);
  }
}

/** The event store could not take the events in time; nothing was acknowledged, so retrying is safe. */
export class ServiceUnavailableError extends ApiError {
  /** Seconds a client should wait before retrying (sent as Retry-After). */
  readonly retryAfterSeconds = 1;

  constructor(detail: string) {
    super(503, 'server_error', 'service_unavailable', detail);
  }
}

/**
 * The project has more work running or waiting than its share (of the query lane, of the parser
 * workers): PostHog's DRF Throttled body, with Retry-After. Other projects are not affected.
 */
export class ThrottledError extends ApiError {
  readonly retryAfterSeconds = 1;

  constructor(detail: string) {
    super(429, 'throttled_error', 'throttled', detail);
  }
}

/**
 * A failure of ours, never caused by what a client sent: logged with its code and message, answered
 * 500 with INTERNAL_ERROR_BODY. Its message may name internals (SQL, tables), so it never leaves.
 */
export class InternalError extends Error {
  readonly expose = false;

  constructor(
    /** Stable, for logs and tests. */
    readonly code: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** What a client sees for any unexpected failure; the real cause is only logged. */
export const INTERNAL_ERROR_BODY: ErrorBody = Object.freeze({
  type: 'server_error',
  code: 'error',
  detail: 'A server error occurred.',
  attr: null,
});

/** An analytical query ran past its time limit and was stopped. */
export class QueryTimeoutError extends ApiError {
  constructor(seconds: number) {
    super(504, 'server_error', 'query_timeout', `The query took longer than ${seconds} seconds and was stopped. Try a shorter date range or fewer breakdown values.`);
  }
}

/**
 * An analytical query was refused (by the printer or the engine) for a reason the request caused:
 * PostHog's ExposedHogQLError, which its API answers as a 400 ValidationError with the error's code.
 */
export class QueryRejectedError extends ApiError {
  constructor(code: string, detail: string) {
    super(400, 'validation_error', code, detail);
  }
}
