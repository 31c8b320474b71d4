// A background job of the process that writes the data (retention of events, of recordings): it
// runs soon after start and then every interval, never on a request's path; one pass at a time (a
// second call while one runs joins it); a failure is reported and the next run tries again.

export interface PeriodicJobSchedule {
  /** Only the process that writes runs the job (one per data set). */
  mayRun(): boolean;
  onError(error: unknown): void;
}

export abstract class PeriodicJob<Report> {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<Report> | null = null;
  private stopped = false;

  constructor(private readonly schedule: PeriodicJobSchedule) {}

  /** One pass, now (a second call while one runs joins it). */
  abstract runOnce(now?: Date): Promise<Report>;

  protected abstract pass(now: Date): Promise<Report>;

  start(intervalMs: number, firstDelayMs = 5_000): void {
    const tick = (delay: number) => {
      this.timer = setTimeout(() => {
        if (this.stopped) return;
        const run = this.schedule.mayRun() ? this.runOnce() : Promise.resolve(null);
        void run.catch((error) => this.schedule.onError(error)).finally(() => {
          if (!this.stopped) tick(intervalMs);
        });
      }, delay);
      this.timer.unref();
    };
    tick(firstDelayMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running?.catch(() => {});
  }

  protected joinedPass(now: Date): Promise<Report> {
    if (!this.running) {
      this.running = this.pass(now).finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }
}
