// Streams the generated demo product into a target in chunks, normalised exactly like capture.
import { normaliseEvents } from '../capture/normalise.js';
import type { RawEvent } from '../capture/types.js';
import type { IngestTarget } from '../import/jsonl-import.js';
import { generateDemoEvents } from './generate.js';

const CHUNK = 2_000;

/** Sends every demo event (unless `shouldStop` says otherwise); returns how many were sent. */
export async function sendDemoData(target: IngestTarget, now: Date, shouldStop: () => boolean = () => false): Promise<number> {
  let sent = 0;
  let chunk: RawEvent[] = [];
  const flush = async () => {
    if (chunk.length === 0) return;
    const events = normaliseEvents(
      { events: chunk, envelopeToken: undefined, sentAt: undefined, historicalMigration: true },
      { nowUs: Date.now() * 1000, sentAt: undefined, historicalMigration: true },
    );
    await target.send(chunk, events);
    sent += chunk.length;
    chunk = [];
  };
  for (const event of generateDemoEvents({ now })) {
    if (shouldStop()) return sent;
    chunk.push(event);
    if (chunk.length === CHUNK) await flush();
  }
  await flush();
  return sent;
}
