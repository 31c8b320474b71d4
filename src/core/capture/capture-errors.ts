// Errors the capture endpoints answer with. Codes and details follow PostHog's Django capture
// (`posthog/api/capture.py`), whose JSON error shape the SDKs and PostHog's own tests know.
import { ApiError } from '../../errors.js';

/** 400 `invalid_payload`: the body could not be decoded, or an event failed a check. */
export class InvalidPayloadError extends ApiError {
  constructor(detail: string) {
    super(400, 'validation_error', 'invalid_payload', detail);
  }
}

/** A body that could not be decoded (gzip, base64, lz64, form, UTF-8 or JSON). */
export const malformedRequest = (what: string): InvalidPayloadError =>
  new InvalidPayloadError(`Malformed request data: ${what}`);

export const NO_DATA_DETAIL =
  'No data found. Make sure to use a POST request when sending the payload in the body of the request.';

/** 400 `no_data`: an empty body, or a payload without a single event. */
export class NoDataError extends ApiError {
  constructor() {
    super(400, 'validation_error', 'no_data', NO_DATA_DETAIL);
  }
}

export const MISSING_API_KEY_DETAIL =
  'API key not provided. You can find your project API key in PostHog project settings.';
export const INVALID_API_KEY_DETAIL =
  'Project API key invalid. You can find your project API key in PostHog project settings.';

/** 401 `missing_api_key`: no token in the envelope nor in any event. */
export class MissingApiKeyError extends ApiError {
  constructor() {
    super(401, 'authentication_error', 'missing_api_key', MISSING_API_KEY_DETAIL);
  }
}

/** 401 `invalid_api_key`: a token of the wrong shape, or events that disagree on it. */
export class InvalidApiKeyError extends ApiError {
  constructor(detail: string = INVALID_API_KEY_DETAIL) {
    super(401, 'authentication_error', 'invalid_api_key', detail);
  }
}
