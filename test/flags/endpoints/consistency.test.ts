// PostHog's consistency vectors (reference feature-flags.md 6; the 1000 ids shared by PostHog's
// server and every SDK, stored by the evaluator's tests in test/flags/consistency-vectors.json)
// through the real endpoints: /flags/ v2 and v1, and /decide/ v3 and v2, for distinct_id_0..999.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { createFlag, postJson, valueOf } from './helpers.js';

interface Vector {
  key: string;
  filters: Record<string, unknown>;
  expected: (boolean | string)[];
}

const vectors = JSON.parse(fs.readFileSync(new URL('../consistency-vectors.json', import.meta.url), 'utf8')) as { simpleFlag: Vector; multivariateFlag: Vector };

describe("PostHog's consistency vectors through /flags/ and /decide/", () => {
  let t: TestApp;
  let owner: Credentials;

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('vectors@example.com');
    for (const vector of [vectors.simpleFlag, vectors.multivariateFlag]) await createFlag(t, owner, { key: vector.key, filters: vector.filters });
  });
  afterAll(() => t.close());

  const ask = async (url: string, i: number) => {
    const res = await postJson(t, url, { token: owner.projectApiToken, distinct_id: `distinct_id_${i}` });
    expect(res.statusCode).toBe(200);
    return res.json();
  };

  it('/flags/ v2 answers every id as the vectors say', async () => {
    const simple: unknown[] = [];
    const multivariate: unknown[] = [];
    for (let i = 0; i < 1000; i++) {
      const { flags } = await ask('/flags/?v=2', i);
      simple.push(valueOf(flags['simple-flag']));
      multivariate.push(valueOf(flags['multivariate-flag']));
    }
    expect(simple).toEqual(vectors.simpleFlag.expected);
    expect(simple.filter((v) => v === true)).toHaveLength(446);
    expect(multivariate).toEqual(vectors.multivariateFlag.expected);
  });

  it('/decide/ v3 and /flags/ v1 (legacy values) and /decide/ v2 (enabled only) agree', async () => {
    for (let i = 0; i < 1000; i++) {
      const [decide3, flags1, decide2] = await Promise.all([ask('/decide/?v=3', i), ask('/flags/?v=1', i), ask('/decide/?v=2', i)]);
      const expected = { 'simple-flag': vectors.simpleFlag.expected[i], 'multivariate-flag': vectors.multivariateFlag.expected[i] };
      expect(decide3.featureFlags, `distinct_id_${i}`).toEqual(expected);
      expect(flags1.featureFlags).toEqual(expected);
      expect(decide2.featureFlags).toEqual(Object.fromEntries(Object.entries(expected).filter(([, v]) => v !== false)));
    }
  });
});
