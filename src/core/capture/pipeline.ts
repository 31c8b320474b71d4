// Capture's write path, assembled: requests -> group commit -> capture log (fsync'd append, then
// the 200) -> inserter -> event store. Replayed records from a previous run are queued first.
import { classifyWriteFailure, type WriteFailure } from '../../storage/events/write-failure.js';
import type { TeamEvents } from './event-writer.js';
import { GroupCommitter } from './group-commit.js';
import { CaptureInserter } from './inserter.js';
import { CaptureLog } from './log/capture-log.js';
import type { SetAsideEvents } from './log/set-aside.js';

/** Group-commit limits: one append holds up to this many events; beyond the queue bound, 503. */
const GROUP_COMMIT = { maxBatchItems: 20_000, maxQueuedItems: 500_000, timeoutMs: 10_000 };
/**
 * One insert takes up to this many events. Acknowledged events waiting to be inserted are bounded
 * by count (memory) and by the age of the oldest (how long an acknowledged event can take to become
 * visible): beyond either, new events are refused with 503 until the inserts catch up.
 */
const INSERTS = { maxBatchItems: 20_000, maxBacklogItems: 200_000, maxBacklogAgeMs: 1_500 };
/** How long a shutdown waits for the inserter; what is left is inserted by the next start. */
const STOP_WAIT_MS = 30_000;

export interface CapturePipelineOptions {
  /** Where the log lives (one process owns it). */
  directory: string;
  /** One write of acknowledged events to the event store (EventWriter.write). */
  write: (items: TeamEvents[]) => Promise<void>;
  /** Why a write to the event store failed (see write-failure.ts). */
  classifyInsert: (error: unknown) => Promise<WriteFailure>;
  canWrite?: () => boolean;
  onProblem?: (message: string, error: unknown) => void;
}

export interface CapturePipeline {
  committer: GroupCommitter<TeamEvents>;
  inserter: CaptureInserter;
  /** Events replayed from the log at start (acknowledged by the previous run, maybe not inserted). */
  replayed: number;
  /** Events the store refused after they were acknowledged, kept in the log's refused/ directory. */
  setAside: SetAsideEvents;
  /** Waits for the inserter (bounded), then closes the log. Call after the committer is drained. */
  close(): Promise<void>;
}

export async function openCapturePipeline(options: CapturePipelineOptions): Promise<CapturePipeline> {
  const { log, pending } = await CaptureLog.open(options.directory);
  const inserter = new CaptureInserter(options.write, log, {
    ...INSERTS,
    classify: options.classifyInsert,
    ...(options.canWrite ? { canWrite: options.canWrite } : {}),
    ...(options.onProblem ? { onProblem: options.onProblem } : {}),
  });
  for (const batch of pending) inserter.enqueue(batch);
  const committer = new GroupCommitter<TeamEvents>(
    async (items) => inserter.enqueue({ seq: await log.append(items), items }),
    (item) => item.events.length,
    // An append fails for the disk (503 for all) or for a value that cannot be serialised (400 alone).
    { ...GROUP_COMMIT, classify: async (error) => classifyWriteFailure(error) },
  );
  return {
    committer,
    inserter,
    setAside: log.refused,
    replayed: pending.reduce((sum, batch) => sum + batch.items.reduce((n, item) => n + item.events.length, 0), 0),
    close: async () => {
      await inserter.stop(STOP_WAIT_MS);
      await log.close();
    },
  };
}
