// How big a calculated result may be: what the shared cache holds in all, what one cached entry
// may take, and the most one answer may be (a result past it is refused with a 400 that says how
// to narrow it, rather than a 500 or a metadata store filled by one query).
import { QueryRejectedError } from '../../errors.js';

export interface ResultLimits {
  /** Bytes of responses the shared result cache (query_cache) holds at most; the oldest go first. */
  cacheBytes: number;
  /** A result larger than this is answered but not cached. */
  cacheEntryBytes: number;
  /** A result larger than this (serialised) is not answered at all. */
  maxResultBytes: number;
}

const MB = 1024 * 1024;

export const DEFAULT_RESULT_LIMITS: ResultLimits = Object.freeze({ cacheBytes: 256 * MB, cacheEntryBytes: 10 * MB, maxResultBytes: 100 * MB });

export class ResultTooLargeError extends QueryRejectedError {
  constructor(limitBytes: number) {
    super(
      'result_too_large',
      `The query's result is larger than ${formatMb(limitBytes)} MB, the most Hoglet answers. Add a LIMIT, or narrow the query (a shorter date range, fewer columns or breakdown values).`,
    );
  }
}

/** The result as the JSON text that is cached and served; throws ResultTooLargeError past the limit. */
export function serialisedResult(response: unknown, maxBytes: number): { text: string; bytes: number } {
  let text: string;
  try {
    text = JSON.stringify(response);
  } catch (error) {
    // V8 refuses strings past about 512 MB: far past any limit.
    if (error instanceof RangeError && /Invalid string length/.test(error.message)) throw new ResultTooLargeError(maxBytes);
    throw error;
  }
  const bytes = Buffer.byteLength(text);
  if (bytes > maxBytes) throw new ResultTooLargeError(maxBytes);
  return { text, bytes };
}

function formatMb(bytes: number): string {
  const mb = bytes / MB;
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(2);
}
