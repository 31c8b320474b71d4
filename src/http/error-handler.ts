// The one place errors become HTTP answers, always in PostHog's {type, code, detail, attr} body.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiError,
  INTERNAL_ERROR_BODY,
  InternalError,
  MethodNotAllowedError,
  NotFoundError,
  ParseError,
  PayloadTooLargeError,
  ServiceUnavailableError,
  ThrottledError,
  UnsupportedMediaTypeError,
} from '../errors.js';
import { isStoreUnavailable } from '../storage/unavailable.js';
import { noteServerError } from './server-error-log.js';
import type { RouteIndex } from './route-index.js';
import { toValidationError, type SchemaFailure } from './validation-errors.js';

function snakeCase(text: string): string {
  return text.replace(/^FST_ERR_/, '').toLowerCase();
}

/** Maps Fastify's own errors (parsing, limits, schema) to typed API errors. */
function fromFastifyError(error: FastifyError, request: FastifyRequest, bodyLimit: number): ApiError | null {
  if (error instanceof ApiError) return error;
  if (error.validation) return toValidationError(error.validation as SchemaFailure[]);
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new PayloadTooLargeError(request.routeOptions.bodyLimit ?? bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new UnsupportedMediaTypeError(request.headers['content-type'] ?? '');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ParseError('Request body size did not match Content-Length.');
  }
  if (error instanceof SyntaxError || error.code?.startsWith('FST_ERR_CTP_')) {
    return new ParseError(`JSON parse error - ${error.message}`);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return new ApiError(status, 'invalid_request', error.code ? snakeCase(error.code) : 'invalid_input', error.message);
  }
  return null;
}

/** A store short of disk, memory or connections: 503 (retry later), not a 500. */
function storeUnavailable(error: unknown): ServiceUnavailableError | null {
  if (!isStoreUnavailable(error)) return null;
  const unavailable = new ServiceUnavailableError('The server cannot store or read data right now (its disk, memory or a data store is unavailable); retry shortly.');
  unavailable.cause = error;
  return unavailable;
}

export function installErrorHandling(app: FastifyInstance, routes: RouteIndex, bodyLimit: number): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = fromFastifyError(error, request, bodyLimit) ?? storeUnavailable(error);
    if (apiError) {
      if (apiError.status === 401) reply.header('www-authenticate', 'Bearer realm="api"');
      if (apiError instanceof ThrottledError) reply.header('retry-after', String(apiError.retryAfterSeconds));
      if (apiError instanceof ServiceUnavailableError) {
        reply.header('retry-after', String(apiError.retryAfterSeconds));
        noteServerError(request, apiError.cause ?? apiError);
      }
      if (apiError instanceof MethodNotAllowedError && apiError.withoutBody) return reply.code(405).send();
      return reply.code(apiError.status).send(apiError.toBody());
    }
    // Internal errors and anything unexpected: the cause is logged (server-error-log.ts), never sent.
    noteServerError(request, error, error instanceof InternalError ? error.code : 'unhandled');
    return reply.code(500).send(INTERNAL_ERROR_BODY);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const error = routes.hasOtherMethod(request.method, path)
      ? new MethodNotAllowedError(request.method)
      : new NotFoundError();
    return reply.code(error.status).send(error.toBody());
  });
}
