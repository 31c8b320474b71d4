// Tenant isolation of the SDK flag endpoints, proven by attack (issue 29): two organizations hold
// flags under the SAME generated keys with the same conditions but their own payloads, variants
// and ids; persons under the same distinct ids with different properties; cohorts under the same
// name. fast-check then asks /flags/ with either token, any distinct id, any flag_keys and any
// property overrides: no answer may carry the other organization's flag id, payload or variant, or
// a value decided by the other's persons or cohorts (which also proves the person, definitions
// and project-row caches are keyed by project). Definitions, local evaluation and remote config
// asked with one organization's key for the other's token or project id are refused.
// HOGLET_PROPERTY_SEED replays a seed, HOGLET_PROPERTY_RUNS runs more cases.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys } from '../../helpers/journeys.js';
import { createFlag, postJson } from './helpers.js';

const RUNS = Number(process.env['HOGLET_PROPERTY_RUNS'] ?? 1500);
const SEED = process.env['HOGLET_PROPERTY_SEED'] ? Number(process.env['HOGLET_PROPERTY_SEED']) : undefined;
const options = (numRuns: number) => ({ numRuns, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: false });

type Side = 'A' | 'B';
interface Org { who: Credentials; marker: string; plan: string; flagIds: Map<string, number>; rcId: number }

let t: TestApp;
const orgs = {} as Record<Side, Org>;
/** Flag keys both organizations use; kind by position: person property, cohort, multivariate. */
let keys: string[] = [];
/** Distinct ids that are persons in both organizations (plan pro-A in A, pro-B in B). */
let shared: string[] = [];
const kindOf = (key: string) => (['person', 'cohort', 'variants'] as const)[keys.indexOf(key) % 3]!;
const other = (side: Side): Side => (side === 'A' ? 'B' : 'A');

beforeAll(async () => {
  t = await createTestApp('sqlite');
  const sample = <T>(arb: fc.Arbitrary<T>) => fc.sample(arb, { numRuns: 1, ...(SEED === undefined ? {} : { seed: SEED }) })[0]!;
  keys = sample(fc.uniqueArray(fc.stringMatching(/^[a-zA-Z0-9_-]{1,24}$/), { minLength: 6, maxLength: 9 }));
  shared = sample(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== ''), { minLength: 3, maxLength: 6 }));
  for (const side of ['A', 'B'] as const) {
    const who = await t.bootstrap(`flag-isolation-${side}@example.com`);
    const marker = `zz${side.toLowerCase()}marker`;
    const plan = `pro-${side}`;
    await journeys(t, who, Object.fromEntries(shared.map((id) => [id, [ev('seen', '2024-01-01T10:00:00Z', { $set: { plan } })]])));
    // The same cohort name and condition in both: only A's persons are its members.
    const cohort = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/cohorts/`, payload: { name: 'paying', groups: [{ properties: [{ key: 'plan', value: 'pro-A', type: 'person' }] }] } });
    expect(cohort.statusCode, cohort.body).toBe(201);
    const payload = JSON.stringify(`${marker}-payload`);
    const flagIds = new Map<string, number>();
    for (const key of keys) {
      const kind = (['person', 'cohort', 'variants'] as const)[keys.indexOf(key) % 3];
      const filters = kind === 'person'
        ? { groups: [{ properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro-A'] }], rollout_percentage: 100 }], payloads: { true: payload } }
        : kind === 'cohort'
          ? { groups: [{ properties: [{ key: 'id', type: 'cohort', value: cohort.json().id }], rollout_percentage: 100 }], payloads: { true: payload } }
          : {
            groups: [{ properties: [], rollout_percentage: side === 'A' ? 100 : 60 }],
            multivariate: { variants: [{ key: `${marker}-one`, rollout_percentage: 50 }, { key: `${marker}-two`, rollout_percentage: 50 }] },
            payloads: { [`${marker}-one`]: payload, [`${marker}-two`]: payload },
          };
      flagIds.set(key, (await createFlag(t, who, { key, filters })).id);
    }
    const rcId = (await createFlag(t, who, { key: 'remote', is_remote_configuration: true, filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: payload } } })).id;
    orgs[side] = { who, marker, plan, flagIds, rcId };
  }
});
afterAll(() => t.close());

const request = fc.record({
  side: fc.constantFrom<Side>('A', 'B'),
  distinctId: fc.oneof(fc.constant(null).map(() => shared[0]!), fc.constantFrom(0, 1, 2, 3, 4, 5).map((i) => shared[i % shared.length]!), fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '')),
  plan: fc.option(fc.constantFrom('pro-A', 'pro-B', 'free'), { nil: undefined }),
  flagKeys: fc.option(fc.constant(null).chain(() => fc.subarray(keys)), { nil: undefined }),
  anon: fc.option(fc.constant(null).map(() => shared[1]!), { nil: undefined }),
  version: fc.constantFrom('/flags/?v=2', '/flags/?v=2&config=true', '/decide/?v=4'),
});

describe('/flags/ between two organizations with the same keys, ids and cohort names', () => {
  it('answers only from the asking organization’s flags, persons and cohorts', { timeout: 240_000 }, async () => {
    let decided = 0;
    await fc.assert(fc.asyncProperty(request, async ({ side, distinctId, plan, flagKeys, anon, version }) => {
      const mine = orgs[side];
      const theirs = orgs[other(side)];
      const body: Record<string, unknown> = { token: mine.who.projectApiToken, distinct_id: distinctId };
      if (plan !== undefined) body['person_properties'] = { plan };
      if (flagKeys !== undefined) body['flag_keys_to_evaluate'] = flagKeys;
      if (anon !== undefined) body['$anon_distinct_id'] = anon;
      const res = await postJson(t, version, body);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.body).not.toContain(theirs.marker);
      const flags: Record<string, { enabled: boolean; variant: string | null; metadata: { id: number } }> = res.json().flags;
      const asked = flagKeys ?? keys;
      expect(Object.keys(flags).sort()).toEqual(expect.arrayContaining([...asked].sort()));
      const known = shared.includes(distinctId);
      for (const key of asked) {
        const entry = flags[key]!;
        expect(entry.metadata.id, key).toBe(mine.flagIds.get(key));
        const kind = kindOf(key);
        // Same condition in both organizations: only the asker's own person decides it.
        if (kind === 'person') {
          const seen = plan ?? (known ? mine.plan : undefined);
          expect(entry.enabled, `${side} ${key} for ${distinctId} (plan ${seen})`).toBe(seen === 'pro-A');
          decided += 1;
        }
        if (kind === 'cohort' && plan === undefined) expect(entry.enabled, `${side} cohort flag for ${distinctId}`).toBe(side === 'A' && known);
        if (kind === 'variants' && entry.enabled) expect(entry.variant?.startsWith(mine.marker)).toBe(true);
      }
    }), options(RUNS));
    expect(decided).toBeGreaterThan(RUNS / 2);
  });

  it('the same distinct id answers differently per project however the caches are warmed', async () => {
    const personKey = keys.find((key) => kindOf(key) === 'person')!;
    const cohortKey = keys.find((key) => kindOf(key) === 'cohort')!;
    for (const id of shared) {
      for (const side of ['B', 'A', 'B', 'A'] as const) {
        const res = await postJson(t, '/flags/?v=2', { token: orgs[side].who.projectApiToken, distinct_id: id });
        const flags = res.json().flags;
        expect([flags[personKey].enabled, flags[cohortKey].enabled]).toEqual(side === 'A' ? [true, true] : [false, false]);
      }
    }
  });
});

describe('definitions, local evaluation and remote config across organizations', () => {
  const ask = (key: string, url: string) => t.request(key, { method: 'GET', url });
  const paths = (caller: Org, target: Org) => [
    `/flags/definitions?token=${target.who.projectApiToken}`,
    `/api/feature_flag/local_evaluation?token=${target.who.projectApiToken}`,
    `/api/projects/${target.who.projectId}/feature_flags/local_evaluation`,
    `/api/environments/${target.who.projectId}/feature_flags/local_evaluation?send_cohorts`,
    `/api/projects/${target.who.projectId}/feature_flags/remote/remote_config`,
    `/api/projects/${target.who.projectId}/feature_flags/${target.rcId}/remote_config`,
    // The caller's own project with the other's flag id: that id is no flag of the caller's.
    `/api/projects/${caller.who.projectId}/feature_flags/${target.rcId}/remote_config`,
  ];

  it('one organization’s key never reads the other’s; its own answers hold only its own flags', async () => {
    await fc.assert(fc.asyncProperty(fc.constantFrom<Side>('A', 'B'), fc.nat(6), async (side, index) => {
      const caller = orgs[side];
      const target = orgs[other(side)];
      const foreign = await ask(caller.who.key, paths(caller, target)[index]!);
      expect([401, 403, 404], `${paths(caller, target)[index]} → ${foreign.statusCode} ${foreign.body.slice(0, 200)}`).toContain(foreign.statusCode);
      expect(foreign.body).not.toContain(target.marker);
      // The caller's own path answers, with its own flags only (the last path names a foreign id).
      if (index === 6) return;
      const own = await ask(caller.who.key, paths(caller, caller)[index]!);
      expect(own.statusCode, own.body.slice(0, 200)).toBe(200);
      expect(own.body).not.toContain(target.marker);
      if (index < 4) {
        const ids = own.json().flags.map((flag: { id: number }) => flag.id).sort();
        expect(ids).toEqual([...caller.flagIds.values()].sort());
      } else {
        expect(own.json()).toBe(JSON.stringify(`${caller.marker}-payload`));
      }
    }), options(40));
  });
});
