// Data management in Chromium against a real Hoglet: the events and properties lists show the
// definitions API's numbers (volume, type, badges, tags), a definition edited on its page is what
// the API reads back after a reload, and a hidden event is gone from the insight builder's picker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureNow, getApi, hasChromium, openPage, optionsOf, screenshot, startWorld, tableRows, type World } from './harness.js';

const TIMEOUT = 90_000;

describe.skipIf(!hasChromium)('data management in Chromium', () => {
  let w: World;
  let base = '';
  const apiPath = (path: string) => `/api/projects/${w.who.projectId}/${path}`;
  const definitionNamed = async (kind: 'event_definitions' | 'property_definitions', name: string) =>
    (await getApi(w, apiPath(`${kind}/?limit=200`))).results.find((d: { name: string }) => d.name === name);

  beforeAll(async () => {
    w = await startWorld();
    base = `${w.base}/project/${w.who.projectId}`;
    // Recent events: the last 30 days' volume counts them (the world's own are from 2024).
    const purchase = (id: string, amount: string) => ({ event: 'purchase', distinct_id: id, properties: { amount } });
    await captureNow(w, [purchase('p1', '12'), purchase('p2', '7'), purchase('p3', '30'), { event: 'signed_up', distinct_id: 'p4' }]);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('lists events with the API\'s volume and last seen, and searches them', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/data-management/events`);
    const table = page.getByTestId('definitions-table');
    await table.locator('tbody tr').first().waitFor();
    const api = (await getApi(w, apiPath('event_definitions/?limit=200&ordering=-volume_30_day'))).results as { name: string; volume_30_day: number }[];
    const rows = await tableRows(table);
    expect(rows.map((r) => r.cells[0])).toEqual(api.map((d) => d.name));
    expect(rows.map((r) => r.cells[1])).toEqual(api.map((d) => String(d.volume_30_day)));
    expect(api.find((d) => d.name === 'purchase')?.volume_30_day).toBe(3);
    await page.getByRole('searchbox', { name: 'Search events' }).fill('purch');
    await expect.poll(async () => (await tableRows(table)).map((r) => r.cells[0])).toEqual(['purchase']);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('edits an event definition on its page; a reload shows what the API stored', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/data-management/events`);
    await page.getByRole('link', { name: 'purchase', exact: true }).click();
    const purchase = await definitionNamed('event_definitions', 'purchase');
    await page.waitForURL(`${base}/data-management/events/${purchase.id}`);
    expect(await page.getByTestId('definition-volume').textContent()).toBe('3');
    await page.getByLabel('Description').fill('A completed order');
    await page.getByLabel('Tags').fill('Revenue, core');
    await page.getByLabel('Verified').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();

    await page.reload();
    await page.getByTestId('verified-badge').waitFor();
    // The form fills from the loaded definition one render after the badge shows.
    await expect.poll(() => page.getByLabel('Description').inputValue()).toBe('A completed order');
    expect(await page.getByLabel('Tags').inputValue()).toBe('core, revenue');
    expect(await page.getByLabel('Verified').isChecked()).toBe(true);
    expect(await page.getByTestId('updated-by').textContent()).toMatch(/^ada /); // the user's first name
    const stored = await getApi(w, apiPath(`event_definitions/${purchase.id}/`));
    expect(stored).toMatchObject({ description: 'A completed order', tags: ['core', 'revenue'], verified: true, hidden: false });
    await screenshot(page, 'data-management-definition');

    // The list shows the badge and tags.
    await page.goto(`${base}/data-management/events`);
    const row = page.locator('tr[data-name="purchase"]');
    await row.getByTestId('verified-badge').waitFor();
    expect(await row.locator('.tag').allTextContents()).toEqual(['core', 'revenue']);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('hides an event: gone from the insight builder\'s event picker, still listed here with a badge', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/insights/new`);
    const before = await optionsOf(page.getByTestId('series-0'), 'Series 1 event', '');
    expect(before).toContain('signed_up');

    const signedUp = await definitionNamed('event_definitions', 'signed_up');
    await page.goto(`${base}/data-management/events/${signedUp.id}`);
    await page.getByLabel(/^Hidden/).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect((await getApi(w, apiPath(`event_definitions/${signedUp.id}/`))).hidden).toBe(true);

    await page.goto(`${base}/insights/new`);
    const after = await optionsOf(page.getByTestId('series-0'), 'Series 1 event', '');
    expect(after).not.toContain('signed_up');
    expect(after).toContain('purchase');
    const pickerApi = (await getApi(w, apiPath('event_definitions/?exclude_hidden=true&limit=50'))).results.map((d: { name: string }) => d.name);
    expect(pickerApi).not.toContain('signed_up');

    await page.goto(`${base}/data-management/events`);
    await page.locator('tr[data-name="signed_up"]').getByTestId('hidden-badge').waitFor();
    await screenshot(page, 'data-management-events');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('sets a property\'s type on its page; the properties list shows it', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/data-management/properties`);
    const table = page.getByTestId('definitions-table');
    const row = page.locator('tr[data-name="amount"]');
    await row.waitFor();
    expect(await row.getByTestId('property-type').textContent()).toBe('String');
    await row.getByRole('link', { name: 'amount' }).click();
    const amount = await definitionNamed('property_definitions', 'amount');
    await page.waitForURL(`${base}/data-management/properties/${amount.id}`);
    await page.getByLabel('Type').selectOption('Numeric');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    expect(await definitionNamed('property_definitions', 'amount')).toMatchObject({ property_type: 'Numeric', is_numerical: true });

    await page.goto(`${base}/data-management/properties`);
    await expect.poll(async () => page.locator('tr[data-name="amount"]').getByTestId('property-type').textContent()).toBe('Numeric');
    const api = (await getApi(w, apiPath('property_definitions/?type=event&limit=200'))).results as { name: string; property_type: string | null }[];
    const rows = await tableRows(table);
    expect(rows.map((r) => [r.cells[0], r.cells[1]])).toEqual(api.map((d) => [d.name, d.property_type ?? '—']));
    await screenshot(page, 'data-management-properties');
    // Person properties are a choice away.
    await page.getByLabel('Property owner').selectOption('person');
    await page.locator('tr[data-name="email"]').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
