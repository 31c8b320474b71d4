// Streams the generated demo product into a target in chunks, normalised exactly like capture.
//
// The data is a function of the seed and the UTC day of the run only: it covers the days before
// 00:00 UTC of that day, and event uuids come from the seed. So every run on one day sends the
// same events, and the store, which keeps one event per uuid, adds nothing the second time.
import { normaliseEvents } from '../capture/normalise.js';
import type { RawEvent } from '../capture/types.js';
import type { IngestTarget } from '../import/jsonl-import.js';
import { DEFAULT_DEMO_DAYS, generateDemoEvents } from './generate.js';
import { DAY } from './person.js';

const CHUNK = 2_000;

export interface DemoSize {
  /** Simulated people (default 3,000, some 70,000 events); fewer make a small demo. */
  persons?: number;
  days?: number;
}

export interface DemoProgress {
  /** Share of the period sent so far, 0 to 1 (events come in time order). */
  fraction: number;
  sent: number;
}

export interface DemoRun extends DemoSize {
  /** When the run happens; only its UTC day matters. */
  now: Date;
  shouldStop?: () => boolean;
  onProgress?: (progress: DemoProgress) => void;
  /** Which of these uuids the project already has, when the target can tell (in-process). */
  existingUuids?: (uuids: string[]) => Promise<Set<string>>;
}

export interface DemoSummary {
  /** Demo events sent to the target. */
  sent: number;
  /** How many of them the project had already; null when the target cannot tell. */
  alreadyStored: number | null;
}

/** 00:00 UTC of the instant's day: where the demo's period ends. */
export function demoPeriodEnd(now: Date): Date {
  return new Date(Math.floor(now.getTime() / DAY) * DAY);
}

/** Sends every demo event (unless `shouldStop` says otherwise). */
export async function sendDemoData(target: IngestTarget, run: DemoRun): Promise<DemoSummary> {
  const end = demoPeriodEnd(run.now);
  const days = run.days ?? DEFAULT_DEMO_DAYS;
  const start = end.getTime() - days * DAY;
  const summary: DemoSummary = { sent: 0, alreadyStored: run.existingUuids ? 0 : null };
  let chunk: RawEvent[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    if (run.existingUuids) {
      summary.alreadyStored! += (await run.existingUuids(chunk.map((e) => e.uuid as string))).size;
    }
    const events = normaliseEvents(
      { events: chunk, envelopeToken: undefined, sentAt: undefined, historicalMigration: true },
      { nowUs: Date.now() * 1000, sentAt: undefined, historicalMigration: true },
    );
    await target.send(chunk, events);
    summary.sent += chunk.length;
    const last = Date.parse(chunk.at(-1)!.timestamp as string);
    run.onProgress?.({ fraction: (last - start) / (end.getTime() - start), sent: summary.sent });
    chunk = [];
  };
  const size = { ...(run.persons === undefined ? {} : { persons: run.persons }), days };
  for (const event of generateDemoEvents({ now: end, ...size })) {
    if (run.shouldStop?.()) return summary;
    chunk.push(event);
    if (chunk.length === CHUNK) await flush();
  }
  await flush();
  run.onProgress?.({ fraction: 1, sent: summary.sent });
  return summary;
}
