// The HogQL parser as the server depends on it: PostHog's WebAssembly parser in a worker thread,
// input that would crash or stall it refused first, a crashed or stuck worker replaced, the main
// thread free meanwhile, and parses cached by text.
import { afterAll, describe, expect, it } from 'vitest';
import { CachedHogQLParser } from '../../../src/query/hogql/parse/index.js';
import { checkParsable } from '../../../src/query/hogql/parse/limits.js';
import { WorkerParser } from '../../../src/query/hogql/parse/worker-parser.js';

const parser = new CachedHogQLParser();
/** The project whose turn the parses take (any number; fairness between projects is tested below). */
const PROJECT = 1;
afterAll(() => parser.close());

const refusal = async (work: Promise<unknown>) => {
  const error = await work.then(() => null, (e: unknown) => e as { status?: number; code?: string; detail?: string });
  expect(error, 'expected a refusal').not.toBeNull();
  return error!;
};

describe('parsing', () => {
  it("gives PostHog's AST with positions", async () => {
    const ast = await parser.parse('select', 'select event, count() from events group by event', PROJECT);
    expect(ast.node).toBe('SelectQuery');
    expect((ast['select'] as { node: string; start: { offset: number } }[])[1]).toMatchObject({ node: 'Call', start: { offset: 14 } });
    expect(Object.isFrozen(ast)).toBe(true);
    expect(await parser.parse('select', 'select event, count() from events group by event', PROJECT)).toBe(ast);
    expect((await parser.parse('expr', 'properties.$browser', PROJECT)).node).toBe('Field');
  });

  it('a syntax error is a 400 saying where', async () => {
    const error = await refusal(parser.parse('select', 'select event\nfrom events where', PROJECT));
    expect(error).toMatchObject({ status: 400, code: 'hogql_syntax_error' });
    expect(error.detail).toMatch(/^Syntax error at line 2, column \d+: /);
  });
});

describe('input the parser cannot take', () => {
  it('is refused before it reaches the parser: long, deep, many operators, NUL', async () => {
    const cases = [
      'select ' + 'x'.repeat(50_001),
      `select ${'('.repeat(65)}1${')'.repeat(65)}`,
      `select ${Array.from({ length: 1000 }, (_, i) => i).join(' + ')}`,
      `select 1 where ${Array.from({ length: 300 }, (_, i) => `a = ${i}`).join(' and ')}`,
      'select 1\u0000',
    ];
    for (const text of cases) {
      const started = Date.now();
      expect(await refusal(parser.parse('select', text, PROJECT)), text.slice(0, 40)).toMatchObject({ status: 400, code: 'query_too_complex' });
      expect(Date.now() - started).toBeLessThan(100);
    }
    expect((await parser.parse('select', 'select 1', PROJECT)).node).toBe('SelectQuery');
  });

  it('counts brackets and operators outside strings, quoted names and comments only', () => {
    expect(() => checkParsable('select', `select '${'('.repeat(500)}' -- ${'+'.repeat(500)}\n /* ${'['.repeat(500)} */ , \`${'('.repeat(100)}\``)).not.toThrow();
    expect(() => checkParsable('select', `select 'it''s' , '\\'' , ${'('.repeat(65)}`)).toThrow(/nests brackets/);
  });

  it('sees through every string form: f-strings, nested f-strings, HogQLX tags, comments and quotes the lexer does not close', async () => {
    const nest = (depth: number) => `${'('.repeat(depth)}1${')'.repeat(depth)}`;
    // Each shape is code to PostHog's lexer: shallow, it parses to a tree holding the constant.
    const shapes: Record<string, (inner: string) => string> = {
      'an f-string': (inner) => `select f'text {${inner}} text'`,
      'f-strings in f-strings': (inner) => `select ${"f'{".repeat(3)}${inner}${"}'".repeat(3)}`,
      'a tag child after a quote': (inner) => `select <a>'{${inner}}'</a>`,
      'a tag attribute': (inner) => `select <a b={${inner}} />`,
      'a // comment holding a quote': (inner) => `select 1 // '\n, ${inner} -- '`,
      'a # comment holding a quote': (inner) => `select 1 # '\n, ${inner} -- '`,
      'a quote with an escape the lexer refuses': (inner) => `select '\\q ${inner} '`,
    };
    for (const [name, shape] of Object.entries(shapes)) {
      await parser.parse('select', shape(nest(2)), PROJECT).then(
        (ast) => expect(JSON.stringify(ast), name).toContain('"value":1'),
        (error: { code?: string }) => expect(error.code, name).toBe('hogql_syntax_error'),
      );
      const started = Date.now();
      const error = await refusal(parser.parse('select', shape(nest(80)), PROJECT));
      expect(error, name).toMatchObject({ status: 400, code: 'query_too_complex' });
      expect(error.detail, name).toMatch(/levels deep/);
      expect(Date.now() - started).toBeLessThan(100);
    }
    expect(() => checkParsable('select', `select ${"f'{".repeat(40)}1${"}'".repeat(40)}`)).toThrow(/levels deep/);
    expect(() => checkParsable('select', `select f'{${Array.from({ length: 300 }, (_, i) => i).join(' + ')}}'`)).toThrow(/operators/);
    expect(() => checkParsable('select', `select 1 /* ${nest(70)}`)).toThrow(/levels deep/);
    // What is text to the lexer stays uncounted.
    expect(() => checkParsable('select', `select f'it''s \\{${'('.repeat(100)} \\' ${'+'.repeat(300)}', <a>${'('.repeat(100)}</a>, F'`)).not.toThrow();
  });

  it('a parse past its time loses its worker, not the server; the next parse works', async () => {
    const slow = new CachedHogQLParser({ timeoutMs: 1_500 });
    try {
      // Measured: after a few parses, twelve nested calls take this parser more than 8 s (well inside the guards).
      for (const depth of [2, 4, 8]) await slow.parse('select', `select ${'f('.repeat(depth)}1${')'.repeat(depth)}`, PROJECT);
      let ticks = 0;
      const ticker = setInterval(() => (ticks += 1), 20);
      const error = await refusal(slow.parse('select', `select ${'f('.repeat(12)}1${')'.repeat(12)}`, PROJECT));
      clearInterval(ticker);
      expect(error).toMatchObject({ status: 400, code: 'query_too_complex' });
      expect(error.detail).toMatch(/too long to parse/);
      expect(ticks).toBeGreaterThan(5);
      expect((await slow.parse('select', 'select 2', PROJECT)).node).toBe('SelectQuery');
      expect(slow.worker.restarts).toBe(2);
    } finally {
      await slow.close();
    }
  });

  it('a crashed WebAssembly instance is replaced (what the guards keep out, sent past them)', async () => {
    const raw = new WorkerParser({ timeoutMs: 10_000 });
    try {
      const crash = `select ${Array.from({ length: 1000 }, (_, i) => i).join(' + ')}`;
      const error = await refusal(raw.parseJson('select', crash));
      expect(error).toMatchObject({ status: 400, code: 'query_too_complex' });
      expect(JSON.parse(await raw.parseJson('select', 'select 1')).node).toBe('SelectQuery');
      expect(raw.restarts).toBe(2);
    } finally {
      await raw.close();
    }
  });

  it('a worker that served its share of parses is replaced by a fresh one', async () => {
    const short = new WorkerParser({ parsesPerWorker: 3 });
    try {
      for (const n of [1, 2, 3]) expect(JSON.parse(await short.parseJson('select', `select ${n}`)).node).toBe('SelectQuery');
      expect(short.restarts).toBe(1);
      expect(JSON.parse(await short.parseJson('select', 'select 4')).node).toBe('SelectQuery');
      expect(short.restarts).toBe(2);
    } finally {
      await short.close();
    }
  });

  it('requests past the queue bound are refused with a 503', async () => {
    const small = new WorkerParser({ maxWaiting: 1, timeoutMs: 10_000 });
    try {
      const first = small.parseJson('select', 'select 1');
      const second = small.parseJson('select', 'select 2');
      const third = await refusal(small.parseJson('select', 'select 3'));
      expect(third).toMatchObject({ status: 503, code: 'parser_busy' });
      await Promise.all([first, second]);
    } finally {
      await small.close();
    }
  });
});

describe('fair between projects', () => {
  // Measured: a fresh parser takes 1.5-2 s over this (30 nested parentheses, three times over).
  const deep = (n: number) => `${'('.repeat(30)}${n}${')'.repeat(30)}`;
  const slowText = (n: number) => `select ${deep(n)} from (select ${deep(n)} from (select ${deep(n)}))`;
  const settled = (order: string[], name: string, work: Promise<unknown>) => work.then(() => order.push(name), () => order.push(name));

  it("one project's slow parses hold one worker; another project's parse takes the other at once", async () => {
    const pool = new CachedHogQLParser({ workers: 2, timeoutMs: 10_000 });
    const order: string[] = [];
    try {
      const slow = Array.from({ length: 4 }, (_, n) => settled(order, `b${n}`, pool.parse('select', slowText(n), 2)));
      const started = Date.now();
      expect((await pool.parse('select', 'select 12345 + 1', 1)).node).toBe('SelectQuery');
      order.push('a');
      // Before even the first of the slow project's parses is done (one worker alone served them).
      expect(order[0]).toBe('a');
      expect(Date.now() - started).toBeLessThan(2_000);
      void slow;
    } finally {
      await pool.close();
    }
  });

  it('waiting parses are served round-robin across projects, and bounded per project (429) before the whole queue fills', async () => {
    const raw = new WorkerParser({ workers: 1, timeoutMs: 10_000, maxWaitingPerProject: 2 });
    const order: string[] = [];
    try {
      const slow = Array.from({ length: 3 }, (_, n) => settled(order, `b${n}`, raw.parseJson('select', slowText(n), 'b')));
      const over = await refusal(raw.parseJson('select', slowText(9), 'b'));
      expect(over).toMatchObject({ status: 429, type: 'throttled_error', code: 'throttled' });
      await settled(order, 'a', raw.parseJson('select', 'select 1', 'a'));
      await Promise.all(slow);
      // After the slow parse that was running, not after all of them.
      expect(order).toEqual(['b0', 'a', 'b1', 'b2']);
    } finally {
      await raw.close();
    }
  });

  it('the cache is bounded by the bytes it holds, not by a count', async () => {
    const small = new CachedHogQLParser({ cacheBytes: 100_000 });
    try {
      const columns = Array.from({ length: 40 }, (_, i) => `properties.p${i}`).join(', ');
      for (let n = 0; n < 30; n += 1) await small.parse('select', `select ${columns}, ${n} from events`, PROJECT);
      expect(small.cachedBytes).toBeGreaterThan(50_000);
      expect(small.cachedBytes).toBeLessThanOrEqual(100_000);
    } finally {
      await small.close();
    }
  });
});
