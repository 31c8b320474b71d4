// Which errors mean a store lacks a resource (answered 503, retry later) rather than a bug (500):
// the drivers' own shapes and messages.
import { describe, expect, it } from 'vitest';
import { isDiskTrouble, isStoreUnavailable } from '../../src/storage/unavailable.js';

const clickhouse = (code: number, type: string, message: string) => Object.assign(new Error(message), { code: String(code), type });

describe('isStoreUnavailable', () => {
  it('knows a full disk, memory, parts and connections in every store', () => {
    expect(isStoreUnavailable(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(true);
    expect(isStoreUnavailable(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }))).toBe(true);
    expect(isStoreUnavailable(Object.assign(new Error('could not extend file "base/16384/2619": No space left on device'), { code: '53100', severity: 'ERROR' }))).toBe(true);
    expect(isStoreUnavailable(Object.assign(new Error('sorry, too many clients already'), { code: '53300', severity: 'FATAL' }))).toBe(true);
    expect(isStoreUnavailable(clickhouse(243, 'NOT_ENOUGH_SPACE', 'Cannot reserve 1.00 MiB, not enough space. '))).toBe(true);
    expect(isStoreUnavailable(clickhouse(252, 'TOO_MANY_PARTS', 'Too many parts (3001). Merges are processing significantly slower than inserts'))).toBe(true);
    expect(isStoreUnavailable(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' }))).toBe(true);
    expect(isStoreUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' }))).toBe(true);
    // SQLite rolled the transaction back itself (full disk): Kysely's own rollback then fails.
    expect(isStoreUnavailable(Object.assign(new Error('cannot rollback - no transaction is active'), { code: 'SQLITE_ERROR' }))).toBe(true);
    // Behind a wrapper of ours.
    expect(isStoreUnavailable(new Error('could not write', { cause: Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }) }))).toBe(true);
  });

  it('leaves bugs and a request\'s own faults alone', () => {
    expect(isStoreUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isStoreUnavailable(Object.assign(new Error('UNIQUE constraint failed: insights.short_id'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(false);
    expect(isStoreUnavailable(Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505', severity: 'ERROR' }))).toBe(false);
    expect(isStoreUnavailable(clickhouse(47, 'UNKNOWN_IDENTIFIER', 'Missing columns: x'))).toBe(false);
  });
});

describe('isDiskTrouble', () => {
  it('tells a full or failing disk (what `hoglet` then explains) from a store that is merely out of reach', () => {
    expect(isDiskTrouble(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }))).toBe(true);
    expect(isDiskTrouble(Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }))).toBe(true);
    expect(isDiskTrouble(Object.assign(new Error('ENOSPC: no space left on device, open'), { code: 'ENOSPC', syscall: 'open' }))).toBe(true);
    expect(isDiskTrouble(clickhouse(243, 'NOT_ENOUGH_SPACE', 'Cannot reserve 1.00 MiB, not enough space. '))).toBe(true);
    expect(isDiskTrouble(new Error('could not open', { cause: Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' }) }))).toBe(true);
    expect(isDiskTrouble(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED', syscall: 'connect' }))).toBe(false);
    expect(isDiskTrouble(Object.assign(new Error('sorry, too many clients already'), { code: '53300', severity: 'FATAL' }))).toBe(false);
    expect(isDiskTrouble(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
  });
});
