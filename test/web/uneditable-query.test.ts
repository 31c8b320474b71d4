// No page saves over a query it cannot edit. A query neither the builder nor the SQL editor edits
// (a DataTableNode of an EventsQuery) has no Edit on its page, and the builder opened at its edit
// address shows it read-only with no Save. SQL (a HogQLQuery, bare or in a DataVisualizationNode)
// is edited in the SQL editor: its Edit and its edit address open that, which saves it as SQL.
// Opening either never changes what the API answers for the insight.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openPage, queryApi, screenshot, startWorld, type World } from './harness.js';

const TIMEOUT = 60_000;
const SQL = "select event, count() as c from events where event = '$pageview' group by event";
const QUERIES = {
  hogql: { kind: 'HogQLQuery', query: SQL },
  dataviz: { kind: 'DataVisualizationNode', source: { kind: 'HogQLQuery', query: SQL } },
  events: { kind: 'DataTableNode', source: { kind: 'EventsQuery', select: ['event', 'timestamp'], event: '$pageview' } },
} as const;
const SQL_NAMES = ['hogql', 'dataviz'] as const;

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
      const res = await w.t.request(w.who.key, { method: 'POST', url: `/api/projects/${w.who.projectId}/insights/`, payload: { name: `Query ${name}`, query, saved: true } });
      expect(res.statusCode, res.body).toBe(201);
      saved[name] = res.json();
    }
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('DataTableNode: no Edit on its page; its edit address shows it read-only, with no Save; the query is unchanged', async () => {
    const name = 'events';
    const { page, context, problems } = await openPage(w);
    const insight = saved[name]!;
    await page.goto(`${w.base}/project/${w.who.projectId}/insights/${insight.short_id}`);
    await expect.poll(() => page.getByTestId('insight-name').textContent()).toBe(`Query ${name}`);
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

  for (const name of SQL_NAMES) {
    it(`${QUERIES[name].kind}: its page draws the SQL answer; Edit and its edit address open the SQL editor with its query; the query is unchanged`, async () => {
      const { page, context, problems } = await openPage(w);
      const insight = saved[name]!;
      const editor = `${w.base}/project/${w.who.projectId}/sql?open_insight=${insight.short_id}`;
      await page.goto(`${w.base}/project/${w.who.projectId}/insights/${insight.short_id}`);
      await expect.poll(() => page.getByTestId('insight-name').textContent()).toBe(`Query ${name}`);
      const api = await queryApi(w, QUERIES.hogql);
      const cells = () => page.getByTestId('sql-table').locator('tbody tr').evaluateAll((rows) => rows.map((r: any) => Array.from(r.children).map((c: any) => c.getAttribute('data-value'))));
      await expect.poll(cells).toEqual(api.results.map((r: unknown[]) => r.map(String)));
      const edit = page.getByRole('link', { name: 'Edit', exact: true });
      expect(await edit.getAttribute('href')).toBe(`/project/${w.who.projectId}/sql?open_insight=${insight.short_id}`);
      await edit.click();
      await page.waitForURL(editor);
      const text = () => page.locator('.cm-content').evaluate((el) => (el as any).innerText.replace(/\u00a0/g, ' '));
      await expect.poll(text).toBe(SQL);

      // An old link to the builder's edit address lands in the SQL editor too.
      await page.goto(`${w.base}/project/${w.who.projectId}/insights/${insight.short_id}/edit`);
      await page.waitForURL(editor);
      await expect.poll(text).toBe(SQL);
      expect(await page.getByTestId('uneditable-query').count()).toBe(0);

      expect((await apiInsight(insight.id)).query).toEqual(QUERIES[name]);
      expect(problems).toEqual([]);
      await context.close();
    }, TIMEOUT);
  }
});
