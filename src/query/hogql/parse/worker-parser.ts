// PostHog's parser off the main thread: a small pool of workers, each holding a WebAssembly
// instance. Requests are admitted fairly per project (fair-queue.ts): round-robin across projects,
// one project holding at most all workers but one, and each project's waiting requests bounded
// apart from everyone's; so one project's slow parses never hold another's. A parse that runs past
// its time, or crashes the instance, costs that worker (it is terminated and a fresh one takes the
// slot's next request), never the server.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { FairQueue } from '../../../fair-queue.js';
import { ParserBusyError, ProjectParsesBusyError, QueryTooComplexError } from './errors.js';
import type { ParseKind } from './types.js';
import { WORKER_SOURCE } from './worker-source.js';

export interface WorkerParserOptions {
  /** How long one parse may take (default 3 s: realistic queries take well under 200 ms). */
  readonly timeoutMs?: number;
  /** Worker threads (default 2). With two or more, one project may hold all but one. */
  readonly workers?: number;
  /** Requests that may wait for a worker (default 64); more are refused with a 503. */
  readonly maxWaiting?: number;
  /** Requests one project may have waiting (default 16); more are refused with a 429. */
  readonly maxWaitingPerProject?: number;
  /**
   * Parses one worker serves before a fresh one takes over (default 2,000): the WebAssembly
   * instance's memory only grows, and its parses slow down with it.
   */
  readonly parsesPerWorker?: number;
}

export const DEFAULT_PARSER_WORKERS = 2;

const parserPath = () => createRequire(import.meta.url).resolve('@posthog/hogql-parser');

/** One worker slot: at most one request at a time, its worker replaced after a failure. */
class ParserSlot {
  private worker: Worker | null = null;
  private current: { id: number; resolve(json: string): void; reject(error: Error): void; timer: NodeJS.Timeout } | null = null;
  private nextId = 0;
  private parsesByWorker = 0;

  constructor(
    private readonly options: WorkerParserOptions,
    private readonly started: () => void,
  ) {}

  run(kind: ParseKind, text: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const worker = this.ensureWorker();
      const id = this.nextId++;
      const timer = setTimeout(() => this.fail(id, new QueryTooComplexError('The query took too long to parse; simplify its nesting.')), this.options.timeoutMs ?? 3_000);
      this.current = { id, resolve, reject, timer };
      worker.postMessage({ id, kind, text });
    });
  }

  async close(): Promise<void> {
    if (this.current) {
      clearTimeout(this.current.timer);
      this.current.reject(new Error('the HogQL parser is closed'));
      this.current = null;
    }
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { parserPath: parserPath() } });
    // The parser never keeps the process alive on its own.
    worker.unref();
    worker.on('message', (message: { id: number; json?: string; crashed?: string }) => {
      if (!this.current || message.id !== this.current.id) return;
      if (message.crashed !== undefined) {
        this.fail(message.id, new QueryTooComplexError('The query is too complex for the parser.'));
        return;
      }
      const { resolve, timer } = this.current;
      clearTimeout(timer);
      this.current = null;
      if (++this.parsesByWorker >= (this.options.parsesPerWorker ?? 2_000)) this.retire(worker);
      resolve(message.json ?? '');
    });
    worker.on('error', () => this.replace(worker));
    worker.on('exit', () => this.replace(worker));
    this.worker = worker;
    this.parsesByWorker = 0;
    this.started();
    return worker;
  }

  /** An idle worker that served its share is let go; the next request starts a fresh one. */
  private retire(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    void worker.terminate();
  }

  /** The current request fails; its worker cannot be trusted again. */
  private fail(id: number, error: Error): void {
    if (!this.current || this.current.id !== id) return;
    const { reject, timer } = this.current;
    clearTimeout(timer);
    this.current = null;
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
    reject(error);
  }

  private replace(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    if (this.current) this.fail(this.current.id, new QueryTooComplexError('The query is too complex for the parser.'));
  }
}

export class WorkerParser {
  private readonly slots: ParserSlot[];
  private readonly queue: FairQueue;
  private closed = false;
  /** Workers started so far (each slot's first, and each replacement). */
  restarts = 0;

  constructor(options: WorkerParserOptions = {}) {
    const workers = Math.max(1, options.workers ?? DEFAULT_PARSER_WORKERS);
    this.slots = Array.from({ length: workers }, () => new ParserSlot(options, () => (this.restarts += 1)));
    this.queue = new FairQueue({
      slots: workers,
      maxWaiting: options.maxWaiting ?? 64,
      perTenantWaiting: options.maxWaitingPerProject ?? 16,
      tenantFull: () => new ProjectParsesBusyError(),
      full: () => new ParserBusyError(),
    });
  }

  /** The parser's JSON answer for the text (an AST or its error object), in the project's turn. */
  async parseJson(kind: ParseKind, text: string, project: string = ''): Promise<string> {
    if (this.closed) throw new Error('the HogQL parser is closed');
    const lease = await this.queue.admit(project);
    try {
      if (this.closed) throw new Error('the HogQL parser is closed');
      return await this.slots[lease.slot]!.run(kind, text);
    } finally {
      lease.release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => slot.close()));
  }
}
