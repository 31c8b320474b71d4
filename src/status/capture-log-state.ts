// The capture log's state read from its files, for `hoglet status` when no server owns the log.
// Only reads: the checkpoint names the last record inserted; records after it, in the segments,
// are the acknowledged events the next start inserts. The same numbers as /_health's `capture`.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { decodeFrames } from '../core/capture/log/frames.js';
import type { LoggedBatch } from '../core/capture/log/capture-log.js';
import { SetAsideEvents } from '../core/capture/log/set-aside.js';
import type { CaptureStatus } from '../services.js';

const SEGMENT = /^segment-\d{16}\.log$/;

export async function readCaptureLogState(directory: string): Promise<CaptureStatus> {
  const inserted = await readCheckpoint(directory);
  let acknowledged = inserted;
  let waiting = 0;
  for (const name of (await readdirOrEmpty(directory)).filter((n) => SEGMENT.test(n)).sort()) {
    const data = await fsp.readFile(path.join(directory, name)).catch(() => null); // deleted meanwhile: inserted
    if (!data) continue;
    // A torn tail (never acknowledged) ends the intact frames: decodeFrames stops there.
    for (const payload of decodeFrames(data).payloads) {
      const batch = JSON.parse(payload) as LoggedBatch;
      acknowledged = Math.max(acknowledged, batch.seq);
      if (batch.seq > inserted) waiting += batch.items.reduce((sum, item) => sum + item.events.length, 0);
    }
  }
  const setAside = await SetAsideEvents.of(directory).count();
  return { waiting_events: waiting, set_aside_events: setAside.events, set_aside_files: setAside.files, log: { acknowledged, inserted } };
}

async function readCheckpoint(directory: string): Promise<number> {
  const text = await fsp.readFile(path.join(directory, 'checkpoint'), 'utf8').catch(() => '0');
  const seq = Number(text.trim());
  return Number.isSafeInteger(seq) && seq >= 0 ? seq : 0;
}

async function readdirOrEmpty(directory: string): Promise<string[]> {
  try {
    return await fsp.readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
