import { describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { definitionsOf } from '../../src/query/cache/context-key.js';
import {
  cacheKey, isStaleByClock, listRefreshMode, nextAllowedClientRefresh, parseRefreshMode, sharedRefreshMode, stableJson,
} from '../../src/query/cache/policy.js';
import { failure } from '../helpers/api-error.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('refresh modes', () => {
  it("reads PostHog's spellings", () => {
    for (const raw of ['true', '1', 'yes', '', true]) expect(parseRefreshMode(raw, 'force_cache')).toBe('force_blocking');
    for (const raw of ['false', '0', 'no', undefined, null, false]) expect(parseRefreshMode(raw, 'blocking')).toBe('blocking');
    for (const mode of ['force_cache', 'blocking', 'async', 'lazy_async', 'force_blocking', 'force_async']) expect(parseRefreshMode(mode, 'force_cache')).toBe(mode);
    expect(failure(() => parseRefreshMode('sometimes', 'force_cache'))).toMatchObject({ status: 400, body: { attr: 'refresh' } });
    expect(failure(() => parseRefreshMode(['true'], 'force_cache')).status).toBe(400);
  });

  it('remaps shared views so they never force work and always show data', () => {
    expect(sharedRefreshMode('force_cache')).toBe('lazy_async');
    expect(sharedRefreshMode('force_blocking')).toBe('blocking');
    expect(sharedRefreshMode('async')).toBe('async');
    expect(sharedRefreshMode('force_async')).toBe('lazy_async');
  });

  it('turns waiting modes into background ones for a list of several rows, so it never waits for calculations', () => {
    expect(listRefreshMode('blocking', 2)).toBe('async');
    expect(listRefreshMode('lazy_async', 20)).toBe('async');
    expect(listRefreshMode('force_blocking', 2)).toBe('force_async');
    for (const mode of ['force_cache', 'async', 'force_async'] as const) expect(listRefreshMode(mode, 5)).toBe(mode);
    // One row (how PostHog's frontend loads an insight by short_id): the mode as asked.
    for (const mode of ['blocking', 'lazy_async', 'force_blocking'] as const) expect(listRefreshMode(mode, 1)).toBe(mode);
  });
});

describe('staleness', () => {
  const refreshed = Date.parse('2024-05-01T12:00:00Z');
  it('goes stale after the interval threshold while the range is open', () => {
    const open = { lastRefresh: refreshed, rangeTo: refreshed + HOUR };
    expect(isStaleByClock(open, 'day', refreshed + 6 * HOUR - 1, false)).toBe(false);
    expect(isStaleByClock(open, 'day', refreshed + 6 * HOUR + 1, false)).toBe(true);
    expect(isStaleByClock(open, 'day', refreshed + 6 * HOUR + 1, true)).toBe(false);
    expect(isStaleByClock(open, 'hour', refreshed + HOUR + 1, false)).toBe(true);
    expect(isStaleByClock(open, 'minute', refreshed + 5 * MINUTE + 1, false)).toBe(true);
  });

  it('never goes stale by the clock once the range had ended when calculated', () => {
    const closed = { lastRefresh: refreshed, rangeTo: refreshed - MINUTE };
    expect(isStaleByClock(closed, 'day', refreshed + 1000 * HOUR, false)).toBe(false);
  });

  it('lets a client ask again after 1, 3 or 15 minutes', () => {
    expect(nextAllowedClientRefresh(refreshed, 'minute', null) - refreshed).toBe(MINUTE);
    expect(nextAllowedClientRefresh(refreshed, 'hour', 90 * 24 * HOUR) - refreshed).toBe(3 * MINUTE);
    expect(nextAllowedClientRefresh(refreshed, 'day', 7 * 24 * HOUR) - refreshed).toBe(3 * MINUTE);
    expect(nextAllowedClientRefresh(refreshed, 'day', 30 * 24 * HOUR) - refreshed).toBe(15 * MINUTE);
  });
});

describe('cache key', () => {
  const definitions = { project: { id: 1, timezone: 'UTC', weekStartDay: 0 }, actions: [], testAccountFilters: { type: 'AND', values: [] } };
  const base = { query: { kind: 'TrendsQuery', series: [{ event: 'a' }], interval: 'day' }, teamId: 1, definitions };

  it('is the same for equal queries written differently, and differs by project and by any definition', () => {
    const reordered = { ...base, query: { interval: 'day', series: [{ event: 'a' }], kind: 'TrendsQuery' } };
    expect(cacheKey(reordered)).toBe(cacheKey(base));
    expect(cacheKey({ ...base, teamId: 2 })).not.toBe(cacheKey(base));
    const changed = (change: Record<string, unknown>) => cacheKey({ ...base, definitions: { ...definitions, ...change } });
    expect(changed({ project: { ...definitions.project, timezone: 'Europe/Paris' } })).not.toBe(cacheKey(base));
    expect(changed({ project: { ...definitions.project, weekStartDay: 1 } })).not.toBe(cacheKey(base));
    expect(changed({ actions: [{ id: 7, name: 'Signed up', steps: [{ event: 'signup' }] }] })).not.toBe(cacheKey(base));
    expect(changed({ testAccountFilters: { type: 'AND', values: [{ key: 'email', value: 'x', operator: 'icontains', type: 'person' }] } })).not.toBe(cacheKey(base));
    expect(cacheKey(base)).toMatch(/^cache_[0-9a-f]{40}$/);
    expect(stableJson({ b: [2, { d: 1, c: undefined }], a: null })).toBe('{"a":null,"b":[2,{"d":1}]}');
  });

  it("covers every definition of a query context but its clock, actions and cohorts in id order", () => {
    const step = { event: 'signup' };
    const cohort = (id: number, version: number) => ({ id, name: `c${id}`, isStatic: true, properties: null, version });
    const context = {
      project: { id: 1, timezone: 'UTC', weekStartDay: 0 as const },
      now: DateTime.fromISO('2024-01-01T00:00:00Z'),
      actions: new Map([[9, { id: 9, name: 'b', steps: [step] }], [3, { id: 3, name: 'a', steps: [step] }]]),
      testAccountFilters: { type: 'AND' as const, values: [] },
      pathCleaningRules: [{ regex: '/u/\\d+', alias: '/u/:id' }],
      cohorts: new Map([[7, cohort(7, 2)], [4, cohort(4, 1)]]),
      cohortNames: new Map([['c7', 7]]),
    };
    expect(definitionsOf(context)).toEqual({
      project: context.project,
      actions: [{ id: 3, name: 'a', steps: [step] }, { id: 9, name: 'b', steps: [step] }],
      testAccountFilters: context.testAccountFilters,
      pathCleaningRules: context.pathCleaningRules,
      cohorts: [cohort(4, 1), cohort(7, 2)],
      cohortNames: [['c7', 7]],
    });
    // A static cohort's list changing moves its version, and so the key.
    const moved = { ...context, cohorts: new Map([[7, cohort(7, 3)], [4, cohort(4, 1)]]) };
    expect(cacheKey({ ...base, definitions: definitionsOf(moved) })).not.toBe(cacheKey({ ...base, definitions: definitionsOf(context) }));
    const later = { ...context, now: context.now.plus({ hours: 5 }) };
    expect(cacheKey({ ...base, definitions: definitionsOf(later) })).toBe(cacheKey({ ...base, definitions: definitionsOf(context) }));
  });
});
