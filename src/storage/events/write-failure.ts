// Why a write to the event store failed, as far as the group commit needs to know: because of the
// store (down, timing out, short of resources: everyone retries later) or because of some row in
// it (then the batch is split to find the request that holds it, and only that one is refused).

/** The store did not take an insert of events; `cause` is the engine's or the network's error. */
export class InsertRefusedError extends Error {
  constructor(cause: unknown) {
    super('the event store refused the insert', { cause });
    this.name = 'InsertRefusedError';
  }
}

/**
 * - `store`: the store's fault; nothing to split.
 * - `content`: the rows' fault for certain (the engine could not parse a value, or our own code
 *   choked on what a client sent).
 * - `maybe_content`: the store refused the rows while it answers otherwise: split, but a request
 *   is only blamed if others were stored meanwhile (a store that refuses everything is down).
 */
export type WriteFailure = 'store' | 'content' | 'maybe_content';

/** Engine error types that name a value the engine could not read, whatever else is going on. */
const VALUE_REFUSED = /^(CANNOT_PARSE_|CANNOT_READ_|INCORRECT_DATA$|TYPE_MISMATCH$|VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE$|TOO_LARGE_STRING_SIZE$|ARGUMENT_OUT_OF_BOUND$)/;

export function classifyWriteFailure(error: unknown): WriteFailure {
  if (error instanceof InsertRefusedError) {
    const type = engineErrorType(error.cause);
    return type !== null && VALUE_REFUSED.test(type) ? 'content' : 'maybe_content';
  }
  // A read that failed, or the network: the store's. Anything else was thrown by our own code on
  // what a client sent (e.g. a value it cannot serialise).
  return engineErrorType(error) !== null || isSystemError(error) ? 'store' : 'content';
}

/** ClickHouse errors (server or chDB) carry the engine's error type name, e.g. CANNOT_PARSE_INPUT. */
function engineErrorType(error: unknown): string | null {
  const type = (error as { type?: unknown } | null)?.type;
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof type === 'string' && typeof code === 'string' ? type : null;
}

/** Sockets, DNS, timeouts: Node's system errors carry a syscall or an E-code. */
function isSystemError(error: unknown): boolean {
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  return typeof syscall === 'string' || (typeof code === 'string' && /^E[A-Z]+$/.test(code)) || (error instanceof Error && error.name === 'AbortError');
}
