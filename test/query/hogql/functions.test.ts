// The HogQL function allow-list: every entry prints a plain identifier, nothing that reaches
// outside the row data is on it, and the lookup follows PostHog's name rules.
import fs from 'node:fs';
import { functionsMarkdown } from '../../../src/query/hogql/functions/markdown.js';
import { describe, expect, it } from 'vitest';
import {
  AGGREGATE_FUNCTIONS, allHogQLFunctions, lookupHogQLFunction, SCALAR_FUNCTIONS, timeZoneArgIndex,
  WINDOW_FUNCTIONS,
} from '../../../src/query/hogql/functions/index.js';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

const DENIED = [
  'url', 'file', 'remote', 'remoteSecure', 's3', 'input', 'executable', 'cluster', 'clusterAllReplicas',
  'numbers', 'system', 'dictGet', 'joinGet', 'getSetting', 'currentDatabase', 'currentUser', 'hostName',
  'sleep', 'sleepEachRow', 'getMacro', 'filesystemAvailable', 'globalIn',
  // and a few more of the same kinds
  'hdfs', 'merge', 'mysql', 'postgresql', 'jdbc', 'odbc', 'sqlite', 'dictHas', 'version', 'uptime',
  'throwIf', 'runningAccumulate', 'generate_series', 'globalNotIn', 'serverUUID',
].map((name) => name.toLowerCase());
const DENIED_PREFIXES = ['dictget', 'filesystem', 'joinget'];

function denied(name: string): boolean {
  const lower = name.toLowerCase();
  return DENIED.includes(lower) || DENIED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

const all = allHogQLFunctions();

describe('HogQL function tables', () => {
  it('are a sizeable list', () => {
    expect(SCALAR_FUNCTIONS.size).toBeGreaterThan(300);
    expect(AGGREGATE_FUNCTIONS.size).toBeGreaterThan(100);
    expect(WINDOW_FUNCTIONS.size).toBe(10);
  });

  it('print only plain identifiers', () => {
    for (const { name, fn } of all) {
      expect(fn.clickhouse, name).toMatch(IDENTIFIER);
      expect(name, name).toMatch(IDENTIFIER);
    }
  });

  it('hold nothing from the deny-list, as a HogQL name or a ClickHouse target, in any case', () => {
    const offenders = all.filter(({ name, fn }) => denied(name) || denied(fn.clickhouse)).map(({ name }) => name);
    expect(offenders).toEqual([]);
  });

  it('have consistent arities and flags', () => {
    for (const { name, family, fn } of all) {
      expect(fn.minArgs, name).toBeGreaterThanOrEqual(0);
      if (fn.maxArgs !== undefined) expect(fn.maxArgs, name).toBeGreaterThanOrEqual(fn.minArgs);
      if (fn.maxParams !== undefined) expect(fn.maxParams, name).toBeGreaterThanOrEqual(fn.minParams ?? 0);
      expect(fn.aggregate === true, name).toBe(family === 'aggregate');
      if (fn.minParams !== undefined) expect(family, name).toBe('aggregate');
      if (fn.tzAware) expect(family, name).toBe('scalar');
      // a case-insensitive entry must be reachable through the lower-cased lookup
      if (fn.caseInsensitive) expect(name, name).toBe(name.toLowerCase());
    }
  });

  it('use each HogQL name once across families', () => {
    const names = all.map(({ name }) => name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('lookupHogQLFunction', () => {
  it('finds aggregates', () => {
    expect(lookupHogQLFunction('count')).toEqual({
      family: 'aggregate', fn: { clickhouse: 'count', minArgs: 0, maxArgs: 1, aggregate: true, caseInsensitive: true },
    });
    expect(lookupHogQLFunction('countIf')).toEqual({
      family: 'aggregate', fn: { clickhouse: 'countIf', minArgs: 1, maxArgs: 2, aggregate: true },
    });
    const quantile = lookupHogQLFunction('quantile');
    expect(quantile?.family).toBe('aggregate');
    expect(quantile?.fn).toMatchObject({ clickhouse: 'quantile', minArgs: 1, maxArgs: 1, minParams: 1, maxParams: 1 });
    expect(lookupHogQLFunction('uniqExact')?.fn.maxArgs).toBeUndefined();
  });

  it('finds regular functions', () => {
    expect(lookupHogQLFunction('toStartOfDay')).toEqual({
      family: 'scalar', fn: { clickhouse: 'toStartOfDay', minArgs: 1, maxArgs: 2 },
    });
    expect(lookupHogQLFunction('JSONExtractString')).toEqual({
      family: 'scalar', fn: { clickhouse: 'JSONExtractString', minArgs: 1, maxArgs: 6 },
    });
    expect(lookupHogQLFunction('arrayMap')).toEqual({
      family: 'scalar', fn: { clickhouse: 'arrayMap', minArgs: 2 },
    });
    expect(lookupHogQLFunction('toString')?.fn).toEqual({ clickhouse: 'toString', minArgs: 1, maxArgs: 2 });
    expect(lookupHogQLFunction('toFloat')?.fn.clickhouse).toBe('toFloat64OrNull');
    expect(lookupHogQLFunction('toDate')?.fn).toMatchObject({ clickhouse: 'toDateOrNull', typedFirstArgClickhouse: 'toDate' });
  });

  it('finds window functions, with lag/lead as the in-frame variants', () => {
    expect(lookupHogQLFunction('row_number')).toEqual({
      family: 'window', fn: { clickhouse: 'row_number', minArgs: 0, maxArgs: 0 },
    });
    expect(lookupHogQLFunction('lag')?.fn).toEqual({ clickhouse: 'lagInFrame', minArgs: 1, maxArgs: 3 });
    expect(lookupHogQLFunction('lead')?.fn.clickhouse).toBe('leadInFrame');
  });

  it('folds case only for names marked case-insensitive', () => {
    expect(lookupHogQLFunction('COUNT')?.fn.clickhouse).toBe('count');
    expect(lookupHogQLFunction('Sum')?.fn.clickhouse).toBe('sum');
    expect(lookupHogQLFunction('IF')?.fn.clickhouse).toBe('if');
    expect(lookupHogQLFunction('NOW')?.fn.clickhouse).toBe('now64');
    expect(lookupHogQLFunction('isNull')?.fn.clickhouse).toBe('isNull');
    expect(lookupHogQLFunction('IFNULL')?.fn.clickhouse).toBe('ifNull');
    expect(lookupHogQLFunction('COUNTIF')).toBeUndefined();
    expect(lookupHogQLFunction('countif')).toBeUndefined();
    expect(lookupHogQLFunction('tostartofday')).toBeUndefined();
    expect(lookupHogQLFunction('ROW_NUMBER')).toBeUndefined();
  });

  it('refuses unknown and dangerous names', () => {
    for (const name of ['nope', 'constructor', '__proto__', 'hasOwnProperty', 'url', 'file', 'remote', 's3',
      'numbers', 'dictGet', 'joinGet', 'getSetting', 'currentUser', 'sleep', 'globalIn', 'arrayReduce',
      'sparkline', 'matchesAction', 'countState', 'sumMerge', '']) {
      expect(lookupHogQLFunction(name), name).toBeUndefined();
    }
  });
});

describe('timeZoneArgIndex', () => {
  const tz = (name: string, argCount: number) => {
    const match = lookupHogQLFunction(name);
    if (!match) throw new Error(`no ${name}`);
    return timeZoneArgIndex(match.fn, argCount);
  };

  it('appends the project time zone after the arguments unless the caller filled the last slot', () => {
    expect(tz('now', 0)).toBe(0);
    expect(tz('now', 1)).toBeUndefined();
    expect(tz('toDateTime', 1)).toBe(1);
    expect(tz('toDateTime', 2)).toBeUndefined();
    expect(tz('parseDateTime', 2)).toBe(2);
    expect(tz('toTimeZone', 1)).toBe(1);
    expect(tz('make_timestamp', 6)).toBe(6);
    expect(tz('current_timestamp', 0)).toBeUndefined();
    expect(tz('toStartOfDay', 1)).toBeUndefined();
    expect(tz('today', 0)).toBeUndefined();
  });
});

describe('the documented list', () => {
  it('docs/hogql-functions.md is the allow-list the translator uses (npm run docs:functions rewrites it)', () => {
    const page = fs.readFileSync(new URL('../../../docs/hogql-functions.md', import.meta.url), 'utf8');
    expect(page).toBe(functionsMarkdown());
    for (const banned of ['url', 'file', 'remote', 's3', 'numbers', 'sleep', 'getSetting']) expect(page).not.toContain(`| \`${banned}\` |`);
  });
});
