// What a thrown ApiError looks like to a client, for tests of code below the HTTP layer.
import { ApiError } from '../../src/errors.js';

interface Failure {
  status: number;
  body: unknown;
}

/** The status and body of the ApiError `fn` throws (or its promise rejects with), as the HTTP layer would render it. */
export function failure(fn: () => Promise<unknown>): Promise<Failure>;
export function failure(fn: () => unknown): Failure;
export function failure(fn: () => unknown): Failure | Promise<Failure> {
  let result: unknown;
  try {
    result = fn();
  } catch (error) {
    return rendered(error);
  }
  if (result instanceof Promise) return result.then(() => expectedAnError(), rendered);
  return expectedAnError();
}

function rendered(error: unknown): Failure {
  if (error instanceof ApiError) return { status: error.status, body: error.toBody() };
  throw error;
}

function expectedAnError(): never {
  throw new Error('expected an ApiError');
}

export const invalidPayload = (detail: string) => ({
  status: 400,
  body: { type: 'validation_error', code: 'invalid_payload', detail, attr: null },
});
