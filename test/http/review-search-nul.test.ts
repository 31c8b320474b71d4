// Review (issue 31): a NUL in a list's `search` (PostgreSQL refuses one in a parameter) finds
// nothing, on every list that searches its names through the shared LIKE helper: never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

describe.each(META_STORES)('a NUL in search on %s', (store) => {
  let t: TestApp;
  let who: Credentials;
  beforeAll(async () => {
    t = await createTestApp(store);
    who = await t.bootstrap('searcher@example.com');
  });
  afterAll(() => t.close());

  it.each(['insights', 'dashboards', 'feature_flags', 'cohorts', 'actions', 'annotations'])('%s: an empty page', async (kind) => {
    const res = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/${kind}/?search=x%00y` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([]);
  });
});
