// Loads a JSONL file of exported events through the same normalisation and person logic as
// capture, in batches, counting what it skipped and why.
import fs from 'node:fs';
import readline from 'node:readline';
import { ApiError } from '../../errors.js';
import { normaliseEvents } from '../capture/normalise.js';
import type { CapturedEvent, RawEvent } from '../capture/types.js';
import { exportLineToEvent, UnreadableLineError } from './export-line.js';

export interface IngestTarget {
  /** Stores a batch; `raw` for targets that normalise themselves (a server), else `events`. */
  send(raw: RawEvent[], events: CapturedEvent[]): Promise<void>;
}

export interface ImportProgress {
  lines: number;
  bytesRead: number;
  totalBytes: number;
}

export interface ImportSummary {
  lines: number;
  imported: number;
  skipped: number;
  /** Reason -> number of lines skipped for it. */
  reasons: Record<string, number>;
}

const BATCH = 1_000;

export async function importJsonl(
  file: string,
  target: IngestTarget,
  onProgress: (progress: ImportProgress) => void = () => {},
): Promise<ImportSummary> {
  const totalBytes = fs.statSync(file).size; // throws for a missing or unreadable file: the caller exits non-zero
  const stream = fs.createReadStream(file, { encoding: 'utf8' });
  const summary: ImportSummary = { lines: 0, imported: 0, skipped: 0, reasons: {} };
  let raw: RawEvent[] = [];
  let events: CapturedEvent[] = [];
  const flush = async () => {
    if (events.length === 0) return;
    await target.send(raw, events);
    summary.imported += events.length;
    raw = [];
    events = [];
  };
  for await (const line of readline.createInterface({ input: stream, crlfDelay: Infinity })) {
    summary.lines += 1;
    if (line.trim() === '') continue;
    try {
      const event = exportLineToEvent(line);
      const [normalised] = normaliseEvents(
        { events: [event], envelopeToken: undefined, sentAt: undefined, historicalMigration: true },
        { nowUs: Date.now() * 1000, sentAt: undefined, historicalMigration: true },
      );
      raw.push(event);
      events.push(normalised!);
    } catch (error) {
      if (!(error instanceof UnreadableLineError || error instanceof ApiError)) throw error;
      summary.skipped += 1;
      const reason = error instanceof ApiError ? error.detail : error.message;
      summary.reasons[reason] = (summary.reasons[reason] ?? 0) + 1;
    }
    if (events.length >= BATCH) await flush();
    if (summary.lines % 1000 === 0) onProgress({ lines: summary.lines, bytesRead: stream.bytesRead, totalBytes });
  }
  await flush();
  onProgress({ lines: summary.lines, bytesRead: totalBytes, totalBytes });
  return summary;
}
