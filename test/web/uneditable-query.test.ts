// A saved query the app cannot edit (HogQL SQL, a data visualization of it) is never saved over
// from the app: its page offers no Edit, and the builder opened at its edit address shows the
// query read-only with no Save. The API then still answers the query exactly as it was saved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openPage, screenshot, startWorld, type World } from './harness.js';

const TIMEOUT = 60_000;
const SQL = "select event, count() as c from events where event = '$pageview' group by event";
const QUERIES = {
  hogql: { kind: 'HogQLQuery', query: SQL },
  dataviz: { kind: 'DataVisualizationNode', source: { kind: 'HogQLQuery', query: SQL } },
} as const;

describe.skipIf(!hasChromium)('insights whose query the app cannot edit, in Chromium', () => {
  let w: World;
  const saved: Record<string, { id: number; short_id: string }> = {};

  const apiInsight = async (id: number) => {
    const res = await w.t.request(w.who.key, { method: 'GET', url: `/api/projects/${w.who.projectId}/insights/${id}/` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    w = await startWorld();
    for (const [name, query] of Object.entries(QUERIES)) {
      const res = await w.t.request(w.who.key, { method: 'POST', url: `/api/projects/${w.who.projectId}/insights/`, payload: { name: `SQL ${name}`, query, saved: true } });
      expect(res.statusCode, res.body).toBe(201);
      saved[name] = res.json();
    }
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  for (const name of Object.keys(QUERIES) as (keyof typeof QUERIES)[]) {
    it(`${QUERIES[name].kind}: no Edit on its page; its edit address shows it read-only, with no Save; the query is unchanged`, async () => {
      const { page, context, problems } = await openPage(w);
      const insight = saved[name]!;
      await page.goto(`${w.base}/project/${w.who.projectId}/insights/${insight.short_id}`);
      await expect.poll(() => page.getByTestId('insight-name').textContent()).toBe(`SQL ${name}`);
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'is not one this app charts' }).textContent())
        .toContain(`(${QUERIES[name].kind}) is not one this app charts or edits`);
      expect(await page.getByRole('link', { name: 'Edit' }).count()).toBe(0);

      // Where an old link or a typed address still leads.
      await page.goto(`${w.base}/project/${w.who.projectId}/insights/${insight.short_id}/edit`);
      await expect.poll(() => page.getByRole('status').filter({ hasText: 'cannot be edited here' }).count()).toBe(1);
      expect(JSON.parse((await page.getByTestId('uneditable-query').textContent())!)).toEqual(QUERIES[name]);
      expect(await page.getByRole('button', { name: 'Save' }).count()).toBe(0);
      expect(await page.getByRole('tab').count()).toBe(0);
      await screenshot(page, `uneditable-${name}`);

      expect((await apiInsight(insight.id)).query).toEqual(QUERIES[name]);
      expect(problems).toEqual([]);
      await context.close();
    }, TIMEOUT);
  }
});
