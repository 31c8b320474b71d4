// The HogQL parser Hoglet uses: guarded (limits.ts), off the main thread (worker-parser.ts), and
// cached by text (the parse is deterministic; errors are cached too, timeouts are not). Parsed
// trees are frozen and shared. One parser serves the process (sharedHogQLParser).
import { LRUCache } from 'lru-cache';
import type { HogQLNode } from '../translate/hogql-ast.js';
import { HogQLSyntaxError, QueryTooComplexError, type TextPosition } from './errors.js';
import { checkParsable } from './limits.js';
import type { HogQLParser, ParseKind } from './types.js';
import { WorkerParser, type WorkerParserOptions } from './worker-parser.js';

export type { HogQLParser, ParseKind } from './types.js';
export { HogQLSyntaxError, QueryTooComplexError } from './errors.js';

type Outcome = { readonly node: HogQLNode } | { readonly error: HogQLSyntaxError };

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
function outcomeOf(json: string, text: string): Outcome {
  const parsed = JSON.parse(json) as Record<string, unknown>;
  if (parsed.error === true) {
    const message = String(parsed.message ?? 'invalid syntax');
    const detail = parsed.type === 'NotImplementedError' ? message.replace(/^Unsupported(?: rule)?:\s*/, 'Unsupported syntax: ') : message;
    return { error: new HogQLSyntaxError(detail, position(parsed.start, text), position(parsed.end, text)) };
  }
  if (typeof parsed.node !== 'string') throw new QueryTooComplexError('The parser gave no answer for this query.');
  return { node: deepFreeze(parsed as unknown as HogQLNode) };
}

export class CachedHogQLParser implements HogQLParser {
  private readonly cache = new LRUCache<string, Outcome>({ max: 1_000 });
  private readonly pending = new Map<string, Promise<Outcome>>();
  readonly worker: WorkerParser;

  constructor(options: WorkerParserOptions = {}) {
    this.worker = new WorkerParser(options);
  }

  async parse(kind: ParseKind, text: string): Promise<HogQLNode> {
    checkParsable(kind, text);
    const key = `${kind}\u0000${text}`;
    let outcome = this.cache.get(key);
    if (!outcome) {
      // Requests for the same text share one parse.
      let running = this.pending.get(key);
      if (!running) {
        running = this.worker.parseJson(kind, text).then((json) => outcomeOf(json, text));
        this.pending.set(key, running);
        running.then((done) => this.cache.set(key, done), () => {}).finally(() => this.pending.delete(key));
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

/** The process's parser, started on first use. */
export function sharedHogQLParser(): HogQLParser {
  shared ??= new CachedHogQLParser();
  return shared;
}

/** Stops the process's parser (shutdown); the next use starts a new one. */
export async function closeSharedHogQLParser(): Promise<void> {
  const parser = shared;
  shared = null;
  await parser?.close();
}
