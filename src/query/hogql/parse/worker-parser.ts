// PostHog's parser off the main thread: one worker holds the WebAssembly instance; requests wait
// their turn in a bounded queue; a parse that runs past its time, or crashes the instance, costs
// that worker (it is terminated and a fresh one takes the next request), never the server.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { ParserBusyError, QueryTooComplexError } from './errors.js';
import type { ParseKind } from './types.js';
import { WORKER_SOURCE } from './worker-source.js';

export interface WorkerParserOptions {
  /** How long one parse may take (default 3 s: realistic queries take well under 200 ms). */
  readonly timeoutMs?: number;
  /** Requests that may wait for the worker (default 64); more are refused with a 503. */
  readonly maxWaiting?: number;
  /**
   * Parses one worker serves before a fresh one takes over (default 2,000): the WebAssembly
   * instance's memory only grows, and its parses slow down with it.
   */
  readonly parsesPerWorker?: number;
}

interface Request {
  readonly kind: ParseKind;
  readonly text: string;
  resolve(json: string): void;
  reject(error: Error): void;
}

const parserPath = () => createRequire(import.meta.url).resolve('@posthog/hogql-parser');

export class WorkerParser {
  private worker: Worker | null = null;
  private readonly waiting: Request[] = [];
  private current: { request: Request; id: number; timer: NodeJS.Timeout } | null = null;
  private nextId = 0;
  private closed = false;
  private parsesByWorker = 0;
  /** Workers started so far (the first, and each replacement). */
  restarts = 0;

  constructor(private readonly options: WorkerParserOptions = {}) {}

  /** The parser's JSON answer for the text (an AST or its error object). */
  parseJson(kind: ParseKind, text: string): Promise<string> {
    if (this.closed) return Promise.reject(new Error('the HogQL parser is closed'));
    if (this.waiting.length >= (this.options.maxWaiting ?? 64)) return Promise.reject(new ParserBusyError());
    return new Promise((resolve, reject) => {
      this.waiting.push({ kind, text, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const request of this.waiting.splice(0)) request.reject(new Error('the HogQL parser is closed'));
    if (this.current) {
      clearTimeout(this.current.timer);
      this.current.request.reject(new Error('the HogQL parser is closed'));
      this.current = null;
    }
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }

  private pump(): void {
    if (this.current || this.closed) return;
    const request = this.waiting.shift();
    if (!request) return;
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const timer = setTimeout(() => this.fail(id, new QueryTooComplexError('The query took too long to parse; simplify its nesting.')), this.options.timeoutMs ?? 3_000);
    this.current = { request, id, timer };
    worker.postMessage({ id, kind: request.kind, text: request.text });
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
      const { request, timer } = this.current;
      clearTimeout(timer);
      this.current = null;
      request.resolve(message.json ?? '');
      if (++this.parsesByWorker >= (this.options.parsesPerWorker ?? 2_000)) this.retire(worker);
      this.pump();
    });
    worker.on('error', () => this.replace(worker));
    worker.on('exit', () => this.replace(worker));
    this.worker = worker;
    this.parsesByWorker = 0;
    this.restarts += 1;
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
    const { request, timer } = this.current;
    clearTimeout(timer);
    this.current = null;
    const worker = this.worker;
    this.worker = null;
    void worker?.terminate();
    request.reject(error);
    this.pump();
  }

  private replace(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    if (this.current) this.fail(this.current.id, new QueryTooComplexError('The query is too complex for the parser.'));
  }
}
