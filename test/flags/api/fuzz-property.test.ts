// The flags API and /flags/ attacked with generated input (issue 29): fast-check writes flag
// bodies (any JSON in every field, and filters one step from valid: wrong types, huge numbers,
// NaN-ish strings, deep nesting, long lists, unknown operators, cohorts and flags of the other
// organization) and /flags/ bodies in every encoding the SDKs use. Never a 5xx; a 400 is always
// PostHog's {type, code, detail, attr}; a flag that was made is evaluated and served as a
// definition. A failure prints the seed and the shrunk input; HOGLET_PROPERTY_SEED replays it,
// HOGLET_PROPERTY_RUNS runs more cases.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { MAX_PROJECT_FILTERS_BYTES, MAX_PROJECT_FLAGS } from '../../../src/core/flags/budget.js';
import { createFlag, postJson } from '../endpoints/helpers.js';
import { validation } from './helpers.js';

const RUNS = Number(process.env['HOGLET_PROPERTY_RUNS'] ?? 1000);
const SEED = process.env['HOGLET_PROPERTY_SEED'] ? Number(process.env['HOGLET_PROPERTY_SEED']) : undefined;
const options = (numRuns: number) => ({ numRuns, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: false });

let t: TestApp;
let mine: Credentials;
let foreign: { cohortId: number; flagId: number };
let own: { cohortId: number; flagId: number };

beforeAll(async () => {
  t = await createTestApp('sqlite');
  const theirs = await t.bootstrap('fuzz-theirs@example.com');
  mine = await t.bootstrap('fuzz-mine@example.com');
  const cohort = async (who: Credentials) => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload: { name: 'plan pro', groups: [{ properties: [{ key: 'plan', value: 'pro', type: 'person' }] }] } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  foreign = { cohortId: await cohort(theirs), flagId: (await createFlag(t, theirs, { key: 'theirs', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })).id };
  own = { cohortId: await cohort(mine), flagId: (await createFlag(t, mine, { key: 'base', filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })).id };
});
afterAll(() => t.close());

// ---- generators -------------------------------------------------------------------------------

const deep = (depth: number, leaf: unknown): unknown => (depth === 0 ? leaf : depth % 2 ? [deep(depth - 1, leaf)] : { a: deep(depth - 1, leaf) });
/** Values that break readers: edge numbers, NaN-ish text, deep nesting, long lists, any JSON. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(1e308, -1e308, 2 ** 53 + 1, -0, 0.1, 1e-320, 'NaN', 'Infinity', '-Infinity', '1e999', '', ' ', '\u0000', 'null', 'true', '2024-13-45', '-7d', '9999999999d', '1.2.3.4.5', '^(a+)+$', '(?<=x)', '[', '\\'),
  fc.integer({ min: 1, max: 1000 }).map((n) => deep(n, 'x')),
  fc.integer({ min: 0, max: 1100 }).map((n) => Array.from({ length: n }, (_, i) => `v${i}`)),
  fc.string({ maxLength: 300 }),
  fc.integer({ min: 0, max: 20_000 }).map((n) => 'z'.repeat(n)),
);
/** Mostly a valid value, sometimes a hostile one: bodies one step from valid. */
const mostly = <T>(valid: fc.Arbitrary<T>) => fc.oneof({ weight: 12, arbitrary: valid }, { weight: 1, arbitrary: hostileValue });
const operator = mostly(
  fc.constantFrom('exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex', 'gt', 'gte', 'lt', 'lte', 'is_set', 'is_not_set', 'is_date_exact', 'is_date_before', 'is_date_after', 'in', 'not_in', 'flag_evaluates_to', 'icontains_multi', 'not_icontains_multi', 'semver_eq', 'semver_tilde', 'semver_caret', 'semver_wildcard', 'between', 'not_between'),
);
const property = fc.record({
  key: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('plan', 'email', '$browser', 'id', 'age') }, fc.constant(null), hostileValue, fc.constantFrom(() => String(foreign.flagId), () => String(own.flagId)).map((f) => f())),
  type: mostly(fc.constantFrom('person', 'person', 'person', 'group', 'cohort', 'flag', 'event', 'precalculated-cohort', 'static-cohort')),
  operator,
  value: fc.oneof({ weight: 3, arbitrary: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 })) }, hostileValue, fc.constantFrom(() => foreign.cohortId, () => own.cohortId, () => foreign.flagId).map((f) => f())),
  group_type_index: mostly(fc.integer({ min: -2, max: 6 })),
  negation: mostly(fc.boolean()),
}, { requiredKeys: [] });
const conditionSet = fc.record({
  properties: mostly(fc.array(property, { maxLength: 4 })),
  rollout_percentage: mostly(fc.oneof(fc.integer({ min: -5, max: 105 }), fc.double(), fc.constant(null))),
  variant: mostly(fc.constantFrom('a', 'b', null)),
  aggregation_group_type_index: mostly(fc.integer({ min: -1, max: 5 })),
}, { requiredKeys: [] });
const variant = fc.record({ key: mostly(fc.constantFrom('a', 'b', 'control')), rollout_percentage: mostly(fc.integer({ min: -10, max: 110 })), name: hostileValue }, { requiredKeys: ['key', 'rollout_percentage'] });
const filters = fc.oneof(
  { weight: 4, arbitrary: fc.record({
    groups: mostly(fc.array(conditionSet, { minLength: 1, maxLength: 3 })),
    multivariate: mostly(fc.oneof(fc.constant(null), fc.record({ variants: mostly(fc.array(variant, { maxLength: 3 })) }))),
    payloads: mostly(fc.dictionary(fc.constantFrom('true', 'a', 'b', 'x'), fc.oneof(fc.string({ maxLength: 20 }), hostileValue))),
    aggregation_group_type_index: mostly(fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constant(null))),
    super_groups: hostileValue,
    holdout_groups: hostileValue,
  }, { requiredKeys: ['groups'] }) },
  { weight: 1, arbitrary: hostileValue },
);
let keyCounter = 0;
const flagKey = fc.oneof({ weight: 5, arbitrary: fc.constant(null).map(() => `fuzz-${keyCounter++}`) }, { weight: 1, arbitrary: hostileValue });
const flagBody = fc.record({
  key: flagKey,
  name: mostly(fc.string({ maxLength: 30 })),
  filters,
  active: mostly(fc.boolean()),
  ensure_experience_continuity: mostly(fc.boolean()),
  tags: mostly(fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 3 })),
  evaluation_tags: mostly(fc.array(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 3 })),
  evaluation_runtime: mostly(fc.constantFrom('server', 'client', 'all')),
  bucketing_identifier: mostly(fc.constantFrom('distinct_id', 'device_id')),
  is_remote_configuration: mostly(fc.boolean()),
  version: hostileValue,
  deleted: mostly(fc.constant(false)),
}, { requiredKeys: ['key'] });
const subject = fc.record({
  distinct_id: fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.integer()),
  person_properties: fc.dictionary(fc.constantFrom('plan', 'email', '$browser', 'age', 'id', 'x'), fc.oneof(fc.jsonValue({ maxDepth: 2 }), hostileValue)),
  groups: fc.dictionary(fc.constantFrom('company', 'project'), fc.oneof(fc.string(), fc.integer())),
  group_properties: fc.dictionary(fc.constantFrom('company', 'project'), fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }))),
  $anon_distinct_id: fc.string({ maxLength: 30 }),
}, { requiredKeys: ['distinct_id'] });

// ---- the properties -----------------------------------------------------------------------------

/** Never a 5xx; a 400 is PostHog's validation body. */
function answered(what: unknown, status: number, text: string, allowed: number[]): void {
  const shown = () => `${JSON.stringify(what)?.slice(0, 400)} → ${status} ${text.slice(0, 400)}`;
  if (status >= 500 || !allowed.includes(status)) throw new Error(`unexpected status: ${shown()}`);
  if (status === 400) {
    const body = JSON.parse(text);
    if (Object.keys(body).sort().join() !== 'attr,code,detail,type' || typeof body.type !== 'string' || typeof body.code !== 'string' || typeof body.detail !== 'string' || !(body.attr === null || typeof body.attr === 'string')) {
      throw new Error(`a 400 without PostHog's body: ${shown()}`);
    }
  }
}

/** A flag that was stored is evaluated for generated subjects and served as a definition. */
async function servedAndEvaluated(flag: { key: string; deleted: boolean; is_remote_configuration: boolean }, subjects: Record<string, unknown>[]): Promise<void> {
  const { key } = flag;
  for (const s of subjects) {
    const res = await postJson(t, '/flags/?v=2', { token: mine.projectApiToken, ...s });
    answered(s, res.statusCode, res.body, [200, 400]);
  }
  const definitions = await t.request(mine.key, { method: 'GET', url: `/flags/definitions?token=${mine.projectApiToken}&send_cohorts` });
  answered(key, definitions.statusCode, definitions.body, [200]);
  // Local-evaluation definitions leave out deleted and remote-configuration flags (their payload has its own endpoint).
  if (!flag.deleted && !flag.is_remote_configuration && !definitions.json().flags.some((flag: { key: string }) => flag.key === key)) throw new Error(`definitions lack ${key}: ${JSON.stringify(flag).slice(0, 600)}`);
}

const url = () => `/api/projects/${mine.projectId}/feature_flags/`;

describe('generated flag bodies', () => {
  it('POST: never a 5xx, 400s in PostHog’s shape, a made flag evaluates and is served', { timeout: 120_000 }, async () => {
    let made = 0;
    await fc.assert(fc.asyncProperty(flagBody, fc.array(subject, { minLength: 1, maxLength: 3 }), async (body, subjects) => {
      const res = await t.request(mine.key, { method: 'POST', url: url(), payload: body });
      answered(body, res.statusCode, res.body, [201, 400]);
      if (res.statusCode !== 201) return;
      made += 1;
      await servedAndEvaluated(res.json(), subjects);
    }), options(RUNS));
    // Near-valid bodies must sometimes be valid, or the evaluation half proves nothing.
    expect(made).toBeGreaterThan(RUNS * 0.05);
  });

  it('PATCH of a live flag: never a 5xx, 400s in PostHog’s shape, the flag still evaluates', { timeout: 120_000 }, async () => {
    const { id } = await createFlag(t, mine, { key: 'patched', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
    let changed = 0;
    await fc.assert(fc.asyncProperty(flagBody.map(({ key: _key, deleted: _deleted, version: _version, ...rest }) => rest), subject, async (body, who) => {
      const res = await t.request(mine.key, { method: 'PATCH', url: `${url()}${id}/`, payload: body });
      answered(body, res.statusCode, res.body, [200, 400]);
      if (res.statusCode === 200) changed += 1;
      else if (process.env['FUZZ_DEBUG']) console.log(res.body.slice(0, 200));
      await servedAndEvaluated((await t.request(mine.key, { method: 'GET', url: `${url()}${id}/` })).json(), [who]);
    }), options(RUNS));
    expect(changed).toBeGreaterThan(RUNS * 0.05);
  });
});

describe('generated /flags/ bodies', () => {
  const anyBody = () => fc.oneof(
    subject.map((s) => ({ token: mine.projectApiToken, ...s }) as Record<string, unknown>),
    fc.record({
      token: fc.oneof(fc.constant(null).map(() => mine.projectApiToken), hostileValue),
      api_key: hostileValue,
      distinct_id: hostileValue,
      $distinct_id: hostileValue,
      groups: hostileValue,
      $groups: hostileValue,
      person_properties: hostileValue,
      group_properties: hostileValue,
      $anon_distinct_id: hostileValue,
      $device_id: hostileValue,
      flag_keys_to_evaluate: fc.oneof(fc.array(fc.constantFrom('base', 'patched', 'fuzz-1', 'theirs')), hostileValue),
      disable_flags: hostileValue,
      evaluation_runtime: hostileValue,
      evaluation_contexts: hostileValue,
    }, { requiredKeys: [] }).map((body) => ({ ...body, token: body.token ?? mine.projectApiToken })),
    hostileValue,
  );
  type Encoded = { payload: Buffer | string; headers: Record<string, string>; query: string };
  const encodings: [string, (json: string) => Encoded][] = [
    ['json', (json) => ({ payload: json, headers: { 'content-type': 'application/json' }, query: '' })],
    ['text/plain', (json) => ({ payload: json, headers: { 'content-type': 'text/plain' }, query: '' })],
    ['base64', (json) => ({ payload: Buffer.from(json).toString('base64'), headers: { 'content-type': 'application/x-www-form-urlencoded' }, query: '' })],
    ['form data=', (json) => ({ payload: `data=${encodeURIComponent(Buffer.from(json).toString('base64'))}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, query: '' })],
    ['gzip header', (json) => ({ payload: gzipSync(json), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, query: '' })],
    ['gzip-js', (json) => ({ payload: gzipSync(json), headers: { 'content-type': 'text/plain' }, query: '&compression=gzip-js' })],
    ['garbage', (json) => ({ payload: Buffer.from(json.split('').reverse().join('')), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, query: '&compression=gzip-js' })],
  ];

  it('answer 200, 400 or 401, never a 5xx, in any encoding', { timeout: 120_000 }, async () => {
    const statuses = new Set<number>();
    await fc.assert(fc.asyncProperty(anyBody(), fc.constantFrom(...encodings), fc.constantFrom('/flags/?v=2', '/flags/', '/decide/?v=3'), async (body, [, encode], path) => {
      const { payload, headers, query } = encode(JSON.stringify(body) ?? 'null');
      const res = await t.app.inject({ method: 'POST', url: `${path}${path.includes('?') ? query : `?${query.slice(1)}`}`, payload, headers });
      answered(body, res.statusCode, res.body, [200, 400, 401]);
      statuses.add(res.statusCode);
    }), options(RUNS * 3));
    expect([...statuses].sort()).toEqual([200, 400, 401]);
  });
});

describe('the project budget on filters (bench/attacks: 2,000 flags of 1,000-value lists)', () => {
  it('refuses the flag that takes a project past it with a 400 naming filters; a smaller edit still passes', async () => {
    const owner = await t.bootstrap('fuzz-budget@example.com');
    const big = (n: number, width: number) => ({ groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: Array.from({ length: 1000 }, (_, i) => `${n}-${i}-`.padEnd(width, 'x')) }], rollout_percentage: 100 }] });
    const ids: number[] = [];
    for (let n = 0; n < 4; n++) ids.push((await createFlag(t, owner, { key: `big-${n}`, filters: big(n, 480) })).id);
    const post = (key: string, filters: unknown) => t.request(owner.key, { method: 'POST', url: `/api/projects/${owner.projectId}/feature_flags/`, payload: { key, filters } });
    const refused = await post('big-4', big(4, 480));
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(validation(expect.stringContaining(`at most ${MAX_PROJECT_FILTERS_BYTES} bytes of filters in total`) as unknown as string, 'filters', 'max_length'));
    // An edit is counted without the flag's own old filters; shrinking one frees room for another.
    const shrink = await t.request(owner.key, { method: 'PATCH', url: `/api/projects/${owner.projectId}/feature_flags/${ids[0]}/`, payload: { filters: big(0, 20) } });
    expect(shrink.statusCode, shrink.body).toBe(200);
    expect((await post('big-4', big(4, 400))).statusCode).toBe(201);
    // Restoring a deleted flag counts it again.
    const deleted = await t.request(owner.key, { method: 'PATCH', url: `/api/projects/${owner.projectId}/feature_flags/${ids[1]}/`, payload: { deleted: true } });
    expect(deleted.statusCode).toBe(200);
    expect((await post('big-5', big(5, 480))).statusCode).toBe(201);
    const restore = await t.request(owner.key, { method: 'PATCH', url: `/api/projects/${owner.projectId}/feature_flags/${ids[1]}/`, payload: { deleted: false } });
    expect(restore.statusCode).toBe(400);
  });
});

describe('the project budget on live flags (bench/attacks: a 1,000-flag dependency chain)', () => {
  it(`refuses flag ${MAX_PROJECT_FLAGS + 1} with a 400; a deleted flag frees its place`, { timeout: 120_000 }, async () => {
    const owner = await t.bootstrap('fuzz-count@example.com');
    const post = (key: string) => t.request(owner.key, { method: 'POST', url: `/api/projects/${owner.projectId}/feature_flags/`, payload: { key } });
    let first = 0;
    for (let n = 0; n < MAX_PROJECT_FLAGS; n += 50) {
      const made = await Promise.all(Array.from({ length: 50 }, (_, i) => post(`f-${n + i}`)));
      expect(made.map((res) => res.statusCode)).toEqual(Array(50).fill(201));
      if (n === 0) first = made[0]!.json().id;
    }
    const refused = await post('one-too-many');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(validation(`A project can have at most ${MAX_PROJECT_FLAGS} feature flags. Delete flags you no longer use first.`, null, 'max_length'));
    expect((await t.request(owner.key, { method: 'PATCH', url: `/api/projects/${owner.projectId}/feature_flags/${first}/`, payload: { deleted: true } })).statusCode).toBe(200);
    expect((await post('one-too-many')).statusCode).toBe(201);
  });
});

describe('nested cohorts in a flag (bench/attacks: 20 levels, each naming the one below twice)', () => {
  it('decide each cohort once per request: right answers, and no 2^20 re-evaluation', { timeout: 60_000 }, async () => {
    const owner = await t.bootstrap('fuzz-nested@example.com');
    let cohort: number | null = null;
    for (let level = 0; level < 20; level++) {
      const values: unknown[] = cohort === null ? [{ key: 'plan', type: 'person', operator: 'exact', value: 'pro' }] : [{ key: 'id', type: 'cohort', value: cohort }, { key: 'id', type: 'cohort', value: cohort }];
      const res = await t.request(owner.key, { method: 'POST', url: `/api/projects/${owner.projectId}/cohorts/`, payload: { name: `level ${level}`, filters: { properties: { type: 'OR', values: [{ type: 'AND', values }] } } } });
      expect(res.statusCode, res.body).toBe(201);
      cohort = res.json().id;
    }
    await createFlag(t, owner, { key: 'deep-cohort', filters: { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohort }], rollout_percentage: 100 }] } });
    const times: number[] = [];
    for (const plan of ['pro', 'free', 'pro', 'free', 'pro', 'free']) {
      const started = performance.now();
      const res = await postJson(t, '/flags/?v=2', { token: owner.projectApiToken, distinct_id: `nested-${plan}`, person_properties: { plan } });
      times.push(performance.now() - started);
      expect(res.json().flags['deep-cohort'].enabled).toBe(plan === 'pro');
    }
    // Evaluating every path cost ~150 ms a request on this machine; once per cohort, a few ms.
    expect(Math.min(...times)).toBeLessThan(40);
  });
});
