// The HogQL parser Hoglet uses: guarded (limits.ts), off the main thread in a small pool of
// workers admitted fairly per project (worker-parser.ts), and cached by text (the parse is
// deterministic; errors are cached too, timeouts are not), the cache bounded by an estimate of the
// bytes it holds. Parsed trees are frozen and shared. One parser serves the process
// (sharedHogQLParser), configured by the composition root (configureSharedHogQLParser).
import { LRUCache } from 'lru-cache';
import type { HogQLNode } from '../translate/hogql-ast.js';
import { HogQLSyntaxError, QueryTooComplexError, type TextPosition } from './errors.js';
import { checkParsable } from './limits.js';
import type { HogQLParser, ParseKind } from './types.js';
import { WorkerParser, type WorkerParserOptions } from './worker-parser.js';

export type { HogQLParser, ParseKind } from './types.js';
export { HogQLSyntaxError, QueryTooComplexError } from './errors.js';

type Outcome = ({ readonly node: HogQLNode } | { readonly error: HogQLSyntaxError }) & { readonly bytes: number };

/** Memory the parse cache may hold, estimated (default 64 MiB). */
export const DEFAULT_PARSE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Heap bytes of a cached outcome, estimated: measured on Node 20, a parsed tree takes about 1.5
 * bytes per character of the parser's JSON; text counts 2 bytes a character (UTF-16 at worst).
 */
const outcomeBytes = (json: string, key: string) => 2 * json.length + 2 * key.length + 200;

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object' || Object.isFrozen(item)) continue;
    Object.freeze(item);
    stack.push(...Object.values(item));
  }
  return value;
}

/** Line and column (from 0) of an error's offset: the parser reports the offset only reliably. */
function position(value: unknown, text: string): TextPosition | null {
  const offset = value && typeof value === 'object' ? (value as { offset?: unknown }).offset : undefined;
  if (typeof offset !== 'number' || offset < 0) return null;
  const before = text.slice(0, offset);
  const line = before.split('\n').length - 1;
  return { line, column: offset - (before.lastIndexOf('\n') + 1), offset };
}

/** The parser's JSON answer as a tree, or the syntax error it names. */
function outcomeOf(json: string, text: string, key: string): Outcome {
  const parsed = JSON.parse(json) as Record<string, unknown>;
  const bytes = outcomeBytes(json, key);
  if (parsed.error === true) {
    const message = String(parsed.message ?? 'invalid syntax');
    const detail = parsed.type === 'NotImplementedError' ? message.replace(/^Unsupported(?: rule)?:\s*/, 'Unsupported syntax: ') : message;
    return { error: new HogQLSyntaxError(detail, position(parsed.start, text), position(parsed.end, text)), bytes };
  }
  if (typeof parsed.node !== 'string') throw new QueryTooComplexError('The parser gave no answer for this query.');
  return { node: deepFreeze(parsed as unknown as HogQLNode), bytes };
}

export interface CachedHogQLParserOptions extends WorkerParserOptions {
  /** Estimated bytes the cache may hold (default 64 MiB); the least recently used go first. */
  readonly cacheBytes?: number;
}

export class CachedHogQLParser implements HogQLParser {
  private readonly cache: LRUCache<string, Outcome>;
  /** Parses under way, by project and text: a project never waits for another project's turn. */
  private readonly pending = new Map<string, Promise<Outcome>>();
  readonly worker: WorkerParser;

  constructor(options: CachedHogQLParserOptions = {}) {
    this.worker = new WorkerParser(options);
    this.cache = new LRUCache<string, Outcome>({ maxSize: options.cacheBytes ?? DEFAULT_PARSE_CACHE_BYTES, sizeCalculation: (outcome) => outcome.bytes });
  }

  /** Bytes the cache holds now (estimated). */
  get cachedBytes(): number {
    return this.cache.calculatedSize;
  }

  async parse(kind: ParseKind, text: string, projectId: number): Promise<HogQLNode> {
    checkParsable(kind, text);
    const key = `${kind}\u0000${text}`;
    let outcome = this.cache.get(key);
    if (!outcome) {
      // The same project's requests for the same text share one parse.
      const pendingKey = `${projectId}\u0000${key}`;
      let running = this.pending.get(pendingKey);
      if (!running) {
        running = this.worker.parseJson(kind, text, String(projectId)).then((json) => outcomeOf(json, text, key));
        this.pending.set(pendingKey, running);
        running.then((done) => this.cache.set(key, done), () => {}).finally(() => this.pending.delete(pendingKey));
      }
      outcome = await running;
    }
    if ('error' in outcome) throw outcome.error;
    return outcome.node;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}

let shared: CachedHogQLParser | null = null;
let sharedOptions: CachedHogQLParserOptions = {};

/** How the process's parser is built (workers, cache size); applies from its next start. */
export function configureSharedHogQLParser(options: CachedHogQLParserOptions): void {
  sharedOptions = options;
}

/** The process's parser, started on first use. */
export function sharedHogQLParser(): HogQLParser {
  shared ??= new CachedHogQLParser(sharedOptions);
  return shared;
}

/** Stops the process's parser (shutdown); the next use starts a new one. */
export async function closeSharedHogQLParser(): Promise<void> {
  const parser = shared;
  shared = null;
  await parser?.close();
}
