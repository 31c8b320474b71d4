// A block's first and last rrweb event times, as the snapshots listing answers them (PostHog lists
// each source with its start and end). They are written into the block's name when it is stored,
// so the listing reads no block: `<first ms, 13 digits>-<hash>.<start>_<end>.jsonl.gz` (`.none.`
// when no event has a time). Blocks stored before carry no times (`<first>-<hash>.jsonl.gz`): the
// listing reads those, and only those, as it always did.
// Why the name and not the summary rows: session_replay_events is an AggregatingMergeTree, so a
// merge folds a session's block rows into one (min/max over all its blocks); per-block times
// would be lost after the first merge.
import type { SnapshotLine } from './snapshots.js';

/** Whole milliseconds (as Date keeps them), null when no event has a usable time. */
export type BlockTimes = { startMs: number; endMs: number } | null;

/** The largest time a Date holds (±100,000,000 days): past it there is no ISO text. */
const MAX_DATE_MS = 8.64e15;

/** The earliest and latest numeric `timestamp` of the block's events (any sign, fractions truncated as Date does). */
export function blockTimes(lines: readonly SnapshotLine[]): BlockTimes {
  let start = Number.POSITIVE_INFINITY;
  let end = Number.NEGATIVE_INFINITY;
  for (const [, event] of lines) {
    const timestamp = (event as { timestamp?: unknown }).timestamp;
    if (typeof timestamp !== 'number' || !(Math.abs(timestamp) <= MAX_DATE_MS)) continue;
    start = Math.min(start, timestamp);
    end = Math.max(end, timestamp);
  }
  return Number.isFinite(start) ? { startMs: Math.trunc(start) + 0, endMs: Math.trunc(end) + 0 } : null;
}

/** The part of a block's name that holds its times. */
export function timesNamePart(times: BlockTimes): string {
  return times ? `${times.startMs}_${times.endMs}` : 'none';
}

const TIMED_NAME = /^\d{13}-[0-9a-f]{20}\.(?:(-?\d{1,16})_(-?\d{1,16})|none)\.jsonl\.gz$/;

/** The times a block's name holds; undefined for a name without them (a block stored before). */
export function timesOfName(name: string): BlockTimes | undefined {
  const match = TIMED_NAME.exec(name);
  if (!match) return undefined;
  return match[1] === undefined ? null : { startMs: Number(match[1]), endMs: Number(match[2]) };
}

/** ISO texts of a block's times, as each source lists them. */
export function isoTimes(times: BlockTimes): { start: string | null; end: string | null } {
  return times ? { start: new Date(times.startMs).toISOString(), end: new Date(times.endMs).toISOString() } : { start: null, end: null };
}

/** The times of a block's JSON-lines text (for a caller that has no parsed lines). */
export function timesOfText(text: string): BlockTimes {
  return blockTimes(text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as SnapshotLine));
}
