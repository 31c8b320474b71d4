// PostHog's `blob_v2` snapshot sources over a session's stored blocks: the listing names each block
// by its index in time order (`blob_key: "0"`, `"1"`, …), and one request reads a range of them
// (`source=blob_v2&start_blob_key=&end_blob_key=`, both ends included) as JSON lines, so a player
// asks for a few large answers instead of one per block. PostHog's rules: both keys, integers, at
// most 100 keys past the start (20 with a personal API key), a key past the last block is a 404.
// Hoglet adds a byte bound (stored bytes of the range) so one answer stays small in memory; a range
// of one block is always allowed (the ingest budget bounds a block), else a large block never plays.
// Answers are the blocks' stored text: its lines were written by JSON.stringify at ingest, and
// parsing and writing them again gives the same text, so nothing is parsed here.
import { NotFoundError, ValidationError } from '../../errors.js';
import type { BlockInfo } from './block-store.js';

/** PostHog's SessionRecordingSnapshotsRequestSerializer: `end - start` may be at most this. */
export const MAX_BLOB_KEYS_PER_REQUEST = 100;
export const MAX_BLOB_KEYS_PER_REQUEST_API_KEY = 20;
/** Stored (gzip) bytes one range may read: ~10x that as JSON text in one answer. */
export const MAX_RANGE_STORED_BYTES = 8 * 1024 * 1024;

/** What a snapshots request asks (PostHog's query parameters). */
export interface SnapshotsRequest {
  source?: string;
  blob_key?: string;
  start_blob_key?: string;
  end_blob_key?: string;
  /** PostHog's player sends `blob_v2=true` for the blob_v2 listing; without it the old `blob` listing answers. */
  blob_v2?: string;
}

export interface BlockReader {
  readBlockText(teamId: number, sessionId: string, name: string): Promise<string>;
}

/** The block indexes a blob_v2 request reads, checked as PostHog checks them (400s), then against the session (404). */
export function blobRange(request: SnapshotsRequest, blocks: readonly BlockInfo[], viaApiKey: boolean): { from: number; to: number } {
  const { start_blob_key: start, end_blob_key: end } = request;
  if (!start || !end) throw new ValidationError('Must provide both start blob key and end blob key', 'start_blob_key');
  if (!/^\d{1,9}$/.test(start) || !/^\d{1,9}$/.test(end)) throw new ValidationError('Blob keys must be integers', 'start_blob_key');
  const from = Number(start);
  const to = Number(end);
  const allowed = viaApiKey ? MAX_BLOB_KEYS_PER_REQUEST_API_KEY : MAX_BLOB_KEYS_PER_REQUEST;
  if (to - from > allowed) throw new ValidationError(`Cannot request more than ${allowed} blob keys at once`, 'end_blob_key');
  if (to < from) throw new ValidationError('end_blob_key must not be before start_blob_key', 'end_blob_key');
  if (to >= blocks.length) throw new NotFoundError('Block index out of range');
  let bytes = 0;
  for (let i = from; i <= to; i++) bytes += blocks[i]!.compressedBytes;
  if (bytes > MAX_RANGE_STORED_BYTES && to > from) {
    throw new ValidationError(`Cannot request more than ${MAX_RANGE_STORED_BYTES} stored bytes at once (this range holds ${bytes}): ask for fewer blob keys`, 'end_blob_key');
  }
  return { from, to };
}

/** The lines of blocks `from`..`to` (in index order), as one JSON-lines text. */
export async function readBlobRange(reader: BlockReader, teamId: number, sessionId: string, blocks: readonly BlockInfo[], range: { from: number; to: number }): Promise<string> {
  const names = blocks.slice(range.from, range.to + 1).map((block) => block.name);
  const texts = await Promise.all(names.map((name) => reader.readBlockText(teamId, sessionId, name)));
  return texts.map(blobLines).filter((text) => text !== '').join('\n');
}

/** A block's stored text as a blob answer: its lines joined by newlines, with no empty line (as parsing and joining gave). */
export function blobLines(text: string): string {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  return body.startsWith('\n') || body.includes('\n\n') ? body.split('\n').filter((line) => line !== '').join('\n') : body;
}
