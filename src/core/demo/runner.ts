// Fills a demo project in the background through the normal ingestion path, so its events and
// persons are exactly what capture would have stored. One run per project at a time; a second
// run on the same UTC day stores nothing new (see send.ts).
import type { CaptureService } from '../capture/service.js';
import { sendDemoData, type DemoSize } from './send.js';

export class DemoDataRunner {
  private readonly running = new Map<number, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly capture: CaptureService,
    private readonly onError: (error: unknown) => void,
    private readonly size: DemoSize = {},
  ) {}

  isRunning(projectId: number): boolean {
    return this.running.has(projectId);
  }

  /** Starts generation unless it already runs; the promise settles when it is done. */
  start(projectId: number, now = new Date()): Promise<void> {
    const existing = this.running.get(projectId);
    if (existing) return existing;
    const target = { send: (_raw: unknown, events: Parameters<CaptureService['ingest']>[1]) => this.capture.ingest(projectId, events) };
    const run = sendDemoData(target, { now, ...this.size, shouldStop: () => this.stopping })
      .then(() => undefined)
      .catch((error: unknown) => this.onError(error))
      .finally(() => this.running.delete(projectId));
    this.running.set(projectId, run);
    return run;
  }

  /** Ends runs at their next chunk (shutdown); what was stored stays, the rest is not generated. */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all(this.running.values());
  }
}
