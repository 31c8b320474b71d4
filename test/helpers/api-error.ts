// What a thrown ApiError looks like to a client, for tests of code below the HTTP layer.
import { ApiError } from '../../src/errors.js';

/** The status and body of the ApiError `fn` throws, as the HTTP layer would render it. */
export function failure(fn: () => unknown): { status: number; body: unknown } {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.toBody() };
    throw error;
  }
  throw new Error('expected an ApiError');
}

export const invalidPayload = (detail: string) => ({
  status: 400,
  body: { type: 'validation_error', code: 'invalid_payload', detail, attr: null },
});
