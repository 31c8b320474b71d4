// Which failed writes blame the rows: only errors that certainly name a value (the allow-list);
// every resource the store lacks, and any error not on the list, is the store's and is retried.
// The messages are the engines' own (chDB's NOT_ENOUGH_SPACE was taken from a full tmpfs).
import { describe, expect, it } from 'vitest';
import { InvalidPayloadError } from '../../../src/core/capture/capture-errors.js';
import { classifyWriteFailure, InsertRefusedError } from '../../../src/storage/events/write-failure.js';

/** An error as @clickhouse/client (server or chDB) throws it: message, numeric code as text, type name. */
function clickhouseError(code: number, type: string, message: string): Error {
  return Object.assign(new Error(message), { code: String(code), type });
}

/** A Node system error, as fs and sockets throw them. */
function systemError(code: string, syscall: string, message: string): Error {
  return Object.assign(new Error(`${code}: ${message}, ${syscall}`), { code, syscall, errno: -28 });
}

const STORE_FAULTS: [string, Error][] = [
  ['NOT_ENOUGH_SPACE (243)', clickhouseError(243, 'NOT_ENOUGH_SPACE', 'Cannot reserve 1.00 MiB, not enough space. ')],
  ['MEMORY_LIMIT_EXCEEDED (241)', clickhouseError(241, 'MEMORY_LIMIT_EXCEEDED', 'Memory limit (total) exceeded: would use 3.52 GiB (attempt to allocate chunk of 4194304 bytes), maximum: 3.47 GiB. OvercommitTracker decision: Query was selected to stop by OvercommitTracker.')],
  ['TOO_MANY_PARTS (252)', clickhouseError(252, 'TOO_MANY_PARTS', 'Too many parts (3001 with average size of 2.31 KiB) in table \'hoglet.events (3a1b...)\'. Merges are processing significantly slower than inserts')],
  ['TIMEOUT_EXCEEDED (159)', clickhouseError(159, 'TIMEOUT_EXCEEDED', 'Timeout exceeded: elapsed 30.001 seconds, maximum: 30.')],
  ['CANNOT_WRITE_TO_FILE_DESCRIPTOR (75)', clickhouseError(75, 'CANNOT_WRITE_TO_FILE_DESCRIPTOR', 'Cannot write to file /var/lib/clickhouse/store/tmp_insert_all_1_1_0/data.bin, errno: 28, strerror: No space left on device')],
  ['CANNOT_ALLOCATE_MEMORY (173)', clickhouseError(173, 'CANNOT_ALLOCATE_MEMORY', 'Cannot allocate memory (posix_memalign), size: 1048576.')],
  ['CANNOT_FSYNC (95)', clickhouseError(95, 'CANNOT_FSYNC', 'Cannot fsync file: /data/events/store/data.bin, errno: 5, strerror: Input/output error')],
  ['TABLE_IS_READ_ONLY (242)', clickhouseError(242, 'TABLE_IS_READ_ONLY', 'Table is in readonly mode (replica path: /clickhouse/tables/01/events)')],
  ['ABORTED (236)', clickhouseError(236, 'ABORTED', 'Cancelled merging parts')],
  ['NETWORK_ERROR (210)', clickhouseError(210, 'NETWORK_ERROR', 'Connection reset by peer, while writing to socket')],
  ['CANNOT_READ_ALL_DATA (33): a cut connection', clickhouseError(33, 'CANNOT_READ_ALL_DATA', 'Cannot read all data. Bytes read: 3. Bytes expected: 8.')],
  ['an engine error type never heard of', clickhouseError(9999, 'SOMETHING_NEW', 'A new way to fail')],
  ['ENOSPC', systemError('ENOSPC', 'write', 'no space left on device')],
  ['EDQUOT', systemError('EDQUOT', 'write', 'disk quota exceeded')],
  ['EROFS', systemError('EROFS', 'open', 'read-only file system')],
  ['ECONNREFUSED', systemError('ECONNREFUSED', 'connect', 'connect ECONNREFUSED 127.0.0.1:8123')],
  ['ECONNRESET', systemError('ECONNRESET', 'read', 'socket hang up')],
  ['the client timing out', new Error('Timeout error.')],
  ['an abort', Object.assign(new Error('The user aborted a request.'), { name: 'AbortError' })],
  ['SQLite full (the cache marks)', Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })],
  ['an error of unknown origin', new Error('something odd')],
  ['V8 out of memory for a buffer', new RangeError('Array buffer allocation failed')],
];

describe('a write the store could not take for lack of something is the store\'s fault', () => {
  for (const [name, error] of STORE_FAULTS) {
    it(`${name}: store, inside an insert or on its own`, () => {
      expect(classifyWriteFailure(new InsertRefusedError(error))).toBe('store');
      expect(classifyWriteFailure(error)).toBe('store');
    });
  }
});

describe('only a value the store cannot read blames the rows', () => {
  const VALUE_FAULTS: [string, Error][] = [
    ['CANNOT_PARSE_ESCAPE_SEQUENCE (a lone surrogate, chDB)', clickhouseError(25, 'CANNOT_PARSE_ESCAPE_SEQUENCE', 'Cannot parse escape sequence: missing second part of surrogate pair. In JSON input formats you can disable setting input_format_json_throw_on_bad_escape_sequence to save bad escape sequences as is: (while reading the value of key event): (at row 1)\n: While executing ParallelParsingBlockInputFormat. ')],
    ['CANNOT_PARSE_INPUT_ASSERTION_FAILED', clickhouseError(27, 'CANNOT_PARSE_INPUT_ASSERTION_FAILED', "Cannot parse input: expected '\"' before: 'x}'")],
    ['CANNOT_PARSE_UUID', clickhouseError(376, 'CANNOT_PARSE_UUID', 'Cannot parse uuid 0190: Cannot parse UUID from String')],
    ['TYPE_MISMATCH', clickhouseError(53, 'TYPE_MISMATCH', 'Type mismatch in IN or VALUES section. Expected: UInt64. Got: String')],
    ['INCORRECT_DATA', clickhouseError(117, 'INCORRECT_DATA', 'Incorrect data: expected JSON object')],
    ['VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE', clickhouseError(321, 'VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE', 'Value 300 is out of range of UInt8')],
  ];
  for (const [name, error] of VALUE_FAULTS) {
    it(`${name}: content`, () => expect(classifyWriteFailure(new InsertRefusedError(error))).toBe('content'));
  }

  it('our own checks refusing a value (a 4xx) blame it', () => {
    expect(classifyWriteFailure(new InvalidPayloadError('Invalid payload: too deep'))).toBe('content');
  });

  it('a value JSON cannot write blames it only if others were stored (maybe_content)', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 200_000; i++) deep = [deep];
    let overflow: unknown;
    try {
      JSON.stringify(deep);
    } catch (error) {
      overflow = error;
    }
    expect(classifyWriteFailure(overflow)).toBe('maybe_content');
    expect(classifyWriteFailure(new InsertRefusedError(new TypeError('Do not know how to serialize a BigInt')))).toBe('maybe_content');
    // A TypeError that is not about a value (fetch's network failure) stays the store's.
    expect(classifyWriteFailure(new TypeError('fetch failed'))).toBe('store');
  });
});
