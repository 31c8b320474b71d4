// Groups in Chromium against a real Hoglet: $groupidentify and events with $groups sent through
// /batch/; the Groups page lists the types and each type's groups as the API does (search too);
// a group's page shows its properties, its events (the EventsQuery on `$group_N`) and its people
// (the API's related persons).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureBatch, getApi, hasChromium, openPage, queryApi, screenshot, startWorld, tableRows, type World } from './harness.js';

const TIMEOUT = 60_000;
const COLUMNS = ['*', 'event', 'person_display_name -- Person', 'timestamp'];
const recent = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
const identify = (type: string, key: string, set: object, at: string) =>
  ({ event: '$groupidentify', distinct_id: 'server', timestamp: at, properties: { $group_type: type, $group_key: key, $group_set: set } });

describe.skipIf(!hasChromium)('groups in Chromium', () => {
  let w: World;

  beforeAll(async () => {
    w = await startWorld();
    await captureBatch(w, [
      identify('company', 'acme', { name: 'Acme Corp', plan: 'enterprise', seats: 40 }, recent(60)),
      identify('company', 'globex', { name: 'Globex', industry: 'energy' }, recent(50)),
      identify('company', 'initech', { name: 'Initech', plan: 'free' }, recent(45)),
      identify('team', 'acme-growth', { name: 'Growth' }, recent(40)),
      { event: '$pageview', distinct_id: 'p1', timestamp: recent(30), properties: { $groups: { company: 'acme', team: 'acme-growth' }, $current_url: 'https://acme.test/' } },
      { event: 'invoice_sent', distinct_id: 'p2', timestamp: recent(20), properties: { $groups: { company: 'acme' } } },
      { event: 'invoice_sent', distinct_id: 'p1', timestamp: recent(10), properties: { $groups: { company: 'acme' } } },
      { event: 'invoice_sent', distinct_id: 'p3', timestamp: recent(5), properties: { $groups: { company: 'globex' } } },
    ]);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('the Groups page lists the types and the groups of each as the API does, searched by property value', async () => {
    const { page, context, problems } = await openPage(w);
    const base = `/api/projects/${w.who.projectId}`;
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Groups' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/groups`);

    const types = await getApi(w, `${base}/groups_types/`);
    expect(types.map((t: any) => t.group_type)).toEqual(['company', 'team']);
    const tabs = page.getByTestId('group-types').getByRole('link');
    await expect.poll(() => tabs.evaluateAll((as) => as.map((a) => [a.getAttribute('data-key'), a.textContent]))).toEqual([['company', 'company'], ['team', 'team']]);

    const table = page.getByTestId('groups-table');
    const companies = await getApi(w, `${base}/groups/?group_type_index=0`);
    expect(companies.results.map((g: any) => g.group_key)).toEqual(['initech', 'globex', 'acme']);
    await expect.poll(async () => (await tableRows(table)).map((r) => r.key)).toEqual(['initech', 'globex', 'acme']);
    expect((await tableRows(table)).map((r) => r.cells.slice(0, 2))).toEqual(companies.results.map((g: any) => [g.group_properties.name, g.group_key]));
    await screenshot(page, 'groups-list');

    await page.getByRole('searchbox', { name: 'Search groups' }).fill('enterprise');
    const searched = await getApi(w, `${base}/groups/?group_type_index=0&search=enterprise`);
    expect(searched.results.map((g: any) => g.group_key)).toEqual(['acme']);
    await expect.poll(async () => (await tableRows(page.locator('[data-testid="groups-table"][data-search="enterprise"]'))).map((r) => r.key)).toEqual(['acme']);

    // Display names set through PostHog's update_metadata name the tabs.
    const named = await w.t.request(w.who.key, { method: 'PATCH', url: `${base}/groups_types/update_metadata/`, payload: [{ group_type_index: 0, name_singular: 'Company', name_plural: 'Companies' }] });
    expect(named.statusCode).toBe(200);
    await page.reload();
    await expect.poll(() => tabs.evaluateAll((as) => as.map((a) => a.textContent))).toEqual(['Companies', 'team']);

    await tabs.filter({ hasText: 'team' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/groups/1`);
    await expect.poll(async () => (await tableRows(table)).map((r) => r.key)).toEqual(['acme-growth']);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it("a group's page: its properties, its events as the EventsQuery on $group_0 answers, its people as /related/ answers", async () => {
    const { page, context, problems } = await openPage(w);
    const base = `/api/projects/${w.who.projectId}`;
    await page.goto(`${w.base}/project/${w.who.projectId}/groups/0`);
    await page.getByTestId('groups-table').getByRole('link', { name: 'Acme Corp' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/groups/0/acme`);
    await expect.poll(() => page.getByTestId('group-name').textContent()).toBe('Acme Corp');

    const group = await getApi(w, `${base}/groups/find/?group_type_index=0&group_key=acme`);
    const props = await tableRows(page.getByTestId('group-properties'));
    expect(Object.fromEntries(props.map((r) => [r.cells[0], r.cells[1]]))).toEqual(Object.fromEntries(Object.entries(group.group_properties).map(([k, v]) => [k, String(v)])));

    const events = await queryApi(w, { kind: 'EventsQuery', select: COLUMNS, where: ["$group_0 = 'acme'"], orderBy: ['timestamp DESC'], after: 'all', limit: 100 });
    const uuids = (events.results as [{ uuid: string }][]).map((r) => r[0].uuid);
    expect(events.results.map((r: any) => r[1])).toEqual(['invoice_sent', 'invoice_sent', '$pageview']);
    const rows = page.getByTestId('event-row');
    await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-uuid')))).toEqual(uuids);

    const related = await getApi(w, `${base}/groups/related/?group_type_index=0&id=acme`);
    const people = related.filter((a: any) => a.type === 'person');
    expect(people.map((p: any) => p.distinct_ids[0]).sort()).toEqual(['p1', 'p2']);
    await expect.poll(async () => (await tableRows(page.getByTestId('group-people'))).map((r) => r.key).sort()).toEqual(people.map((p: any) => p.id).sort());
    await expect.poll(() => page.getByTestId('group-related-groups').getByRole('link').allTextContents()).toEqual(['acme-growth']);
    await screenshot(page, 'groups-page');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
