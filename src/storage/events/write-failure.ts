// Why a write to the event store failed, as far as the group commit and the inserter need to know:
// because of the store (down, timing out, short of disk, memory or parts: everyone retries later)
// or because of some row in it (then the batch is split to find the request that holds it, and
// only that one is refused or set aside).
//
// The rows are blamed only by an allow-list of errors that certainly name a value: the engine
// could not parse or hold a value of a row, or our own checks or serialisation refused one.
// Everything else, known resource errors (NOT_ENOUGH_SPACE, MEMORY_LIMIT_EXCEEDED, TOO_MANY_PARTS,
// TIMEOUT_EXCEEDED, ENOSPC, read-only disks, the network) and errors this file has never heard
// of alike, is the store's. That is safe with the culprit search (culprit-search.ts): a 'store'
// failure is never split, so no request is answered 400 and no acknowledged event is set aside
// for it; the whole write is retried while the capture log keeps the events. Guessing the other
// way lost acknowledged events on a full disk (issue 27): as merges freed and took space, some
// halves of a split were stored and others refused, so the refused ones looked guilty. The cost
// of an unknown error that really was one value's is that inserts stop (retried, logged each
// time; capture answers 503 once the backlog bound is reached) until an operator adds its type
// here, instead of events being set aside on a guess. Failures that only a large write meets
// (a statement past max_query_size, memory) still get through: the inserter retries a failed
// write in halves, in order, down to one request (inserter.ts), which blames nothing.
import { ApiError } from '../../errors.js';

/** The store did not take an insert of events; `cause` is the engine's or the network's error. */
export class InsertRefusedError extends Error {
  constructor(cause: unknown) {
    super('the event store refused the insert', { cause });
    this.name = 'InsertRefusedError';
  }
}

/**
 * - `store`: the store's fault; nothing to split, retry the whole write.
 * - `content`: the rows' fault for certain (the engine could not read a value, or our checks
 *   refused one): split, and the single item refused alone is blamed.
 * - `maybe_content`: our own code choked while serialising a value (a stack overflow on deep
 *   nesting, a string past V8's limit): split, but a single item is only blamed if others were
 *   stored meanwhile (a bug that fails every write is not any request's fault).
 */
export type WriteFailure = 'store' | 'content' | 'maybe_content';

/**
 * ClickHouse error types (ErrorCodes.cpp) that say a value of a row could not be read or held by
 * its column, whatever the store is going through. Only parsing and type errors: nothing here can
 * be raised by a lack of disk, memory or time. (CANNOT_READ_ALL_DATA and ATTEMPT_TO_READ_AFTER_EOF
 * are left out on purpose: a connection cut mid-insert raises them too.)
 */
const VALUE_REFUSED_TYPES = new Set([
  'INCORRECT_DATA', // 117
  'TYPE_MISMATCH', // 53
  'CANNOT_CONVERT_TYPE', // 70
  'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE', // 321
  'TOO_LARGE_STRING_SIZE', // 131
  'TOO_LARGE_ARRAY_SIZE', // 128
  'CANNOT_READ_ARRAY_FROM_TEXT', // 130
  'CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN', // 349
  'ARGUMENT_OUT_OF_BOUND', // 69
  'DECIMAL_OVERFLOW', // 407
]);

/** Every CANNOT_PARSE_* (TEXT 6, ESCAPE_SEQUENCE 25, INPUT_ASSERTION_FAILED 27, DATETIME 41, UUID 376, ...). */
const VALUE_REFUSED_PREFIX = 'CANNOT_PARSE_';

/** What V8's JSON.stringify throws on a value it cannot write (not on a lack of memory). */
const UNSERIALISABLE_VALUE = /Maximum call stack size exceeded|Invalid string length|Do not know how to serialize a BigInt|Converting circular structure to JSON/;

export function classifyWriteFailure(error: unknown): WriteFailure {
  const cause = error instanceof InsertRefusedError ? error.cause : error;
  // Our own checks refusing what a client sent (a 4xx) speak for the value.
  if (cause instanceof ApiError && cause.status < 500) return 'content';
  const type = engineErrorType(cause);
  if (type !== null) return isValueRefusedType(type) ? 'content' : 'store';
  if ((cause instanceof RangeError || cause instanceof TypeError) && UNSERIALISABLE_VALUE.test(cause.message)) return 'maybe_content';
  return 'store';
}

/** Whether a ClickHouse error type names a value of a row (the allow-list above). */
export function isValueRefusedType(type: string): boolean {
  return type.startsWith(VALUE_REFUSED_PREFIX) || VALUE_REFUSED_TYPES.has(type);
}

/** ClickHouse errors (server or chDB) carry the engine's error type name, e.g. CANNOT_PARSE_INPUT. */
function engineErrorType(error: unknown): string | null {
  const type = (error as { type?: unknown } | null)?.type;
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof type === 'string' && typeof code === 'string' ? type : null;
}
