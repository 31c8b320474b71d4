// Failures of a store itself rather than of the request: a full disk, memory, too many
// connections or parts, a read-only or failing disk, the network. They are answered 503 (retry
// later) in PostHog's error body instead of the generic 500, so clients and load balancers know
// the request was fine and nothing was done.

/** ClickHouse error types (server or chDB) that say the engine lacks a resource or cannot be reached. */
const CLICKHOUSE_RESOURCE_TYPES = new Set([
  'NOT_ENOUGH_SPACE', // 243
  'CANNOT_ALLOCATE_MEMORY', // 173
  'TOO_MANY_PARTS', // 252
  'TOO_MANY_SIMULTANEOUS_QUERIES', // 202
  'CANNOT_WRITE_TO_FILE_DESCRIPTOR', // 75
  'CANNOT_FSYNC', // 95
  'CANNOT_OPEN_FILE', // 76
  'CANNOT_READ_FROM_FILE_DESCRIPTOR', // 74
  'TABLE_IS_READ_ONLY', // 242
  'NETWORK_ERROR', // 210
  'SOCKET_TIMEOUT', // 209
  'ALL_CONNECTION_TRIES_FAILED', // 279
  'CANNOT_SCHEDULE_TASK', // 439
]);

/** better-sqlite3's codes (SQLITE_FULL, SQLITE_IOERR_WRITE, ...). */
const SQLITE_UNAVAILABLE = /^SQLITE_(FULL|IOERR|BUSY|LOCKED|READONLY|CANTOPEN|NOMEM|PROTOCOL)/;
/** PostgreSQL SQLSTATEs: 53 insufficient resources (53100 disk full), 08 connection, 57P operator intervention, 58 system, 25006 read-only. */
const POSTGRES_UNAVAILABLE = /^(53...|08...|57P0[1-3]|58...|25006)$/;
/** Node's system errors for disks and sockets. */
const SYSTEM_UNAVAILABLE = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EMFILE', 'ENFILE', 'ENOMEM', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/**
 * The same, as drivers that only keep the text say it. SQLite rolls a transaction back by itself
 * only after a full disk, an I/O error, a lack of memory or a busy database, so the rollback that
 * follows in Kysely fails with "cannot rollback - no transaction is active" in exactly those cases.
 */
const UNAVAILABLE_TEXT = /No space left on device|Disk quota exceeded|database or disk is full|not enough space|Read-only file system|cannot rollback - no transaction is active/i;

/** Whether the error, or one of its causes, is a store failing for lack of a resource. */
export function isStoreUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { code, type } = e as { code?: unknown; type?: unknown };
    if (typeof type === 'string' && typeof code === 'string' && CLICKHOUSE_RESOURCE_TYPES.has(type)) return true;
    if (typeof code === 'string' && (SQLITE_UNAVAILABLE.test(code) || SYSTEM_UNAVAILABLE.has(code))) return true;
    if (typeof code === 'string' && POSTGRES_UNAVAILABLE.test(code) && 'severity' in e) return true;
    if (UNAVAILABLE_TEXT.test(e.message)) return true;
  }
  return false;
}

/** The words of a disk that is full or failing (not of memory, connections or the network). */
const DISK_CODES = /^(ENOSPC|EDQUOT|EIO|EROFS|SQLITE_FULL|SQLITE_IOERR.*|NOT_ENOUGH_SPACE|CANNOT_WRITE_TO_FILE_DESCRIPTOR|CANNOT_FSYNC)$/;
const DISK_TEXT = /No space left on device|Disk quota exceeded|database or disk is full|disk I\/O error|not enough space|Read-only file system/i;

/** Whether the error, or one of its causes, says the disk is full or failing: what `hoglet` then tells the operator. */
export function isDiskTrouble(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { code, type } = e as { code?: unknown; type?: unknown };
    if ((typeof code === 'string' && DISK_CODES.test(code)) || (typeof type === 'string' && DISK_CODES.test(type)) || DISK_TEXT.test(e.message)) return true;
  }
  return false;
}
