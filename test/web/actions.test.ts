// Actions in Chromium against a real Hoglet: an action made of a URL-contains page view and an
// autocapture text step shows, while edited, the 30-day count the API gives for the saved action;
// a trend of it in the insight builder shows the API's ActionsNode numbers and re-opens with it;
// editing changes what the API stores; deleting (PostHog's soft delete) takes it off the list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureNow, getApi, hasChromium, legendItems, openPage, pick, queryApi, screenshot, startWorld, tableRows, type World } from './harness.js';

const TIMEOUT = 90_000;
const NAME = 'Started a trial';
// `_` and `(` are special in LIKE and in regexes: the count must treat them as plain text, as the server does.
const URL_PART = '/pricing_v2';
const TEXT = 'Start (free)';

const thirtyDays = (id: number) => ({
  kind: 'TrendsQuery',
  series: [{ kind: 'ActionsNode', id }],
  dateRange: { date_from: '-30d' },
  interval: 'day',
  trendsFilter: { display: 'BoldNumber' },
});

describe.skipIf(!hasChromium)('actions in Chromium', () => {
  let w: World;
  let base = '';
  let actionId = 0;
  const apiPath = (path: string) => `/api/projects/${w.who.projectId}/${path}`;
  const apiCount = async (id: number) => (await queryApi(w, thirtyDays(id))).results[0].aggregated_value as number;

  beforeAll(async () => {
    w = await startWorld();
    base = `${w.base}/project/${w.who.projectId}`;
    const view = (id: string, url: string) => ({ event: '$pageview', distinct_id: id, properties: { $current_url: url } });
    const click = (id: string, text: string) => ({
      event: '$autocapture', distinct_id: id,
      properties: { $event_type: 'click', $current_url: 'https://example.com/', $elements_chain: `button.cta:attr__class="cta"nth-child="1"nth-of-type="1"text="${text}";div:nth-child="2"nth-of-type="1"` },
    });
    await captureNow(w, [
      view('a1', 'https://example.com/pricing_v2?plan=pro'), view('a2', 'https://example.com/pricing_v2'), view('a1', 'https://example.com/pricingXv2'),
      view('a3', 'https://example.com/docs'),
      click('a1', TEXT), click('a2', TEXT), click('a3', 'Start free'), click('a3', 'Contact us'),
      { event: 'signed_up', distinct_id: 'a2', properties: { $current_url: 'https://example.com/pricing_v2' } },
    ]);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('creates an action from two steps; the count while editing is the API\'s count for the saved action', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/insights`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Actions' }).click();
    await page.waitForURL(`${base}/actions`);
    await page.getByRole('link', { name: 'New action' }).click();
    await page.waitForURL(`${base}/actions/new`);

    await page.getByLabel('Name').fill(NAME);
    await page.getByLabel('Description').fill('Pricing page or the trial button');
    await page.getByLabel('Tags').fill('growth');
    // Step 1: a page view whose URL contains the pricing path.
    const first = page.getByTestId('step-0');
    await first.getByLabel('Step 1 Page URL', { exact: true }).fill(URL_PART);
    // Step 2: a click on an element with exactly the trial text.
    await page.getByRole('button', { name: '+ Add element (autocapture) group' }).click();
    const second = page.getByTestId('step-1');
    expect(await second.getByRole('combobox', { name: 'Step 2 event' }).inputValue()).toBe('$autocapture');
    await second.getByLabel('Step 2 Element text', { exact: true }).fill(TEXT);

    const count = page.locator('[data-testid=action-count][data-state=ready]');
    // 2 page views (not /pricingXv2: `_` is not a wildcard) and 2 clicks on "Start (free)".
    await expect.poll(() => count.getAttribute('data-value'), { timeout: 15_000 }).toBe('4');
    await screenshot(page, 'actions-edit');

    await page.getByRole('button', { name: 'Create action' }).click();
    await page.waitForURL(/\/actions\/\d+$/);
    actionId = Number(page.url().split('/').pop());
    const stored = await getApi(w, apiPath(`actions/${actionId}/`));
    expect(stored).toMatchObject({
      name: NAME, description: 'Pricing page or the trial button', tags: ['growth'], deleted: false,
      steps: [
        { event: '$pageview', url: URL_PART, url_matching: 'contains', text: null, selector: null, properties: [] },
        { event: '$autocapture', text: TEXT, text_matching: 'exact', href: null, url: null, selector: null, tag_name: null },
      ],
    });
    expect(await apiCount(actionId)).toBe(4);
    // The saved action's page counts with the same question.
    await expect.poll(() => count.getAttribute('data-value'), { timeout: 15_000 }).toBe('4');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('lists the action with its steps and searches by name', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/actions`);
    const table = page.getByTestId('actions-table');
    await table.locator(`tr[data-id="${actionId}"]`).waitFor();
    const api = (await getApi(w, apiPath('actions/'))).results as { id: number; name: string }[];
    expect((await tableRows(table)).map((r) => r.cells[0])).toEqual(api.map((a) => `${a.name}${a.name === NAME ? 'growth' : ''}`));
    const steps = await table.locator(`tr[data-id="${actionId}"]`).getByTestId('action-steps').textContent();
    expect(steps).toBe(`$pageview, URL containing "${URL_PART}"or $autocapture, text equal to "${TEXT}"`);
    expect(await table.locator(`tr[data-id="${actionId}"] td`).nth(3).textContent()).toBe('ada');
    await page.getByRole('searchbox', { name: 'Search actions' }).fill('nothing like it');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(0);
    await page.getByRole('searchbox', { name: 'Search actions' }).fill('trial');
    await expect.poll(async () => (await tableRows(table)).length).toBe(1);
    await screenshot(page, 'actions-list');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('charts the action in a trend with the API\'s ActionsNode numbers; the saved insight re-opens with it', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/insights/new`);
    await pick(page.getByTestId('series-0'), 'Series 1 event', 'trial', NAME);
    const preview = page.getByTestId('builder-preview');
    await preview.getByRole('button', { name: 'Show data table' }).click();
    const source = {
      kind: 'TrendsQuery',
      series: [{ kind: 'ActionsNode', id: actionId, name: NAME }],
      dateRange: { date_from: '-7d' },
      interval: 'day',
      trendsFilter: { display: 'ActionsLineGraph' },
    };
    const answer = (await queryApi(w, source)).results as { count: number; data: number[] }[];
    expect(answer[0]!.count).toBe(4);
    await expect.poll(async () => (await tableRows(preview.getByTestId('data-table'))).map((r) => r.cells.slice(1)), { timeout: 15_000 })
      .toEqual(answer.map((i) => [i.count, ...i.data].map(String)));
    expect((await legendItems(preview)).map((l) => l.value)).toEqual(['4']);

    await page.getByLabel('Insight name').fill('Trials');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/insights\/(?!new)[^/]+$/);
    const shortId = page.url().split('/').pop()!;
    const saved = (await getApi(w, apiPath(`insights/?short_id=${shortId}`))).results[0];
    expect(saved.query.source).toMatchObject({ kind: 'TrendsQuery', series: [{ kind: 'ActionsNode', id: actionId, name: NAME }] });
    await expect.poll(async () => (await legendItems(page.locator('.insight-view'))).map((l) => l.value)).toEqual(['4']);
    await screenshot(page, 'actions-trend');

    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${base}/insights/${shortId}/edit`);
    expect(await page.getByRole('combobox', { name: 'Series 1 event' }).inputValue()).toBe(NAME);
    // Retention keeps the action as its entity.
    await page.getByRole('tab', { name: 'Retention' }).click();
    await page.locator('[data-testid=builder-preview][data-state=ready] .insight-view').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('takes the action as a funnel step (the API\'s numbers), a retention entity and a stickiness or lifecycle series', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/insights/new`);
    await pick(page.getByTestId('series-0'), 'Series 1 event', 'trial', NAME);
    const ready = page.locator('[data-testid=builder-preview][data-state=ready] .insight-view');
    for (const tab of ['Stickiness', 'Lifecycle']) {
      await page.getByRole('tab', { name: tab }).click();
      await ready.waitFor();
      expect(await page.getByRole('combobox', { name: 'Series 1 event' }).inputValue()).toBe(NAME);
      expect(await page.getByTestId('builder-preview').getByRole('alert').count()).toBe(0);
    }

    // Retention: the action is the start and the return entity, saved as PostHog's {type: actions}.
    await page.getByRole('tab', { name: 'Retention' }).click();
    await ready.waitFor();
    expect(await page.getByRole('combobox', { name: 'Start event' }).inputValue()).toBe(NAME);
    await page.getByLabel('Insight name').fill('Trial retention');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/insights\/(?!new)[^/]+$/);
    let shortId = page.url().split('/').pop()!;
    let saved = (await getApi(w, apiPath(`insights/?short_id=${shortId}`))).results[0];
    expect(saved.query.source.retentionFilter).toMatchObject({ targetEntity: { id: actionId, type: 'actions' }, returningEntity: { id: actionId, type: 'actions' } });
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${base}/insights/${shortId}/edit`);
    expect(await page.getByRole('combobox', { name: 'Start event' }).inputValue()).toBe(NAME);

    // A funnel from the action to signed_up: a1 and a2 did the action, a2 then signed up.
    await page.goto(`${base}/insights/new`);
    await page.getByRole('tab', { name: 'Funnels' }).click();
    await pick(page.getByTestId('series-0'), 'Step 1 event', 'trial', NAME);
    await pick(page.getByTestId('series-1'), 'Step 2 event', 'signed', 'signed_up');
    await page.getByLabel('Insight name').fill('Trial to sign-up');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(/\/insights\/(?!new)[^/]+$/);
    shortId = page.url().split('/').pop()!;
    saved = (await getApi(w, apiPath(`insights/?short_id=${shortId}`))).results[0];
    expect(saved.query.source.series).toEqual([{ kind: 'ActionsNode', id: actionId, name: NAME }, { kind: 'EventsNode', event: 'signed_up', name: 'signed_up' }]);
    const steps = (await queryApi(w, saved.query.source)).results as { count: number }[];
    expect(steps.map((s) => s.count)).toEqual([2, 1]);
    const view = page.locator('.insight-view');
    await view.getByRole('button', { name: 'Show data table' }).click();
    await expect.poll(async () => (await tableRows(view.getByTestId('data-table'))).map((r) => r.cells[1]), { timeout: 15_000 }).toEqual(steps.map((s) => String(s.count)));
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${base}/insights/${shortId}/edit`);
    expect(await page.getByRole('combobox', { name: 'Step 1 event' }).inputValue()).toBe(NAME);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('edits the action (drops a step, adds a regex URL group with a property filter): the API stores it and the count follows', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/actions/${actionId}`);
    const count = page.locator('[data-testid=action-count][data-state=ready]');
    await expect.poll(() => count.getAttribute('data-value'), { timeout: 15_000 }).toBe('4');
    await page.getByRole('button', { name: 'Remove step 1' }).click();
    await expect.poll(() => count.getAttribute('data-value'), { timeout: 15_000 }).toBe('2');
    await page.getByLabel('Step 1 Element text matching').selectOption('contains');
    await page.getByLabel('Step 1 Element text', { exact: true }).fill('Start');
    // "Start (free)" twice and "Start free" once.
    await expect.poll(() => count.getAttribute('data-value'), { timeout: 15_000 }).toBe('3');
    // A page view group with a regex URL and a property filter: a3's /docs view.
    await page.getByRole('button', { name: '+ Add page view group' }).click();
    const added = page.getByTestId('step-1');
    await added.getByLabel('Step 2 Page URL matching').selectOption('regex');
    await added.getByLabel('Step 2 Page URL', { exact: true }).fill('example\\.com/d');
    await added.getByRole('button', { name: '+ Add filter' }).click();
    await pick(added, 'Filter 1 property', 'current', '$current_url');
    await added.getByLabel('Filter 1 operator').selectOption('icontains');
    const value = added.getByRole('combobox', { name: 'Filter 1 value', exact: true });
    await value.fill('DOCS');
    await value.press('Enter');
    await expect.poll(() => count.getAttribute('data-value'), { timeout: 15_000 }).toBe('4');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const stored = await getApi(w, apiPath(`actions/${actionId}/`));
    expect(stored.steps).toEqual([
      expect.objectContaining({ event: '$autocapture', text: 'Start', text_matching: 'contains' }),
      expect.objectContaining({ event: '$pageview', url: 'example\\.com/d', url_matching: 'regex', properties: [{ key: '$current_url', operator: 'icontains', value: 'DOCS', type: 'event' }] }),
    ]);
    expect(await apiCount(actionId)).toBe(4);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('keeps a HogQL filter (made through the API, not edited here) when saved from the page, and counts it as the API does', async () => {
    const hogql = { key: "properties.$current_url like '%docs%'", type: 'hogql' };
    const res = await w.t.request(w.who.key, { method: 'POST', url: apiPath('actions/'), payload: { name: 'Docs views', steps: [{ event: '$pageview', properties: [hogql] }] } });
    expect(res.statusCode).toBe(201);
    const id = res.json().id as number;
    expect(await apiCount(id)).toBe(1);
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/actions/${id}`);
    const count = page.locator('[data-testid=action-count][data-state=ready]');
    await expect.poll(() => count.getAttribute('data-value'), { timeout: 15_000 }).toBe('1');
    await page.getByLabel('Name').fill('Documentation views');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
    const stored = await getApi(w, apiPath(`actions/${id}/`));
    expect(stored.name).toBe('Documentation views');
    expect(stored.steps[0].properties).toEqual([hogql]);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('deletes the action after a confirmation: PostHog\'s soft delete, gone from the list', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/actions`);
    await page.locator('[data-testid=actions-table][data-state=ready]').waitFor();
    const row = page.locator(`tr[data-id="${actionId}"]`);
    await row.getByRole('button', { name: `Delete ${NAME}` }).click();
    await row.getByRole('button', { name: 'Cancel' }).click();
    expect(await getApi(w, apiPath(`actions/${actionId}/`))).toMatchObject({ deleted: false });
    await row.getByRole('button', { name: `Delete ${NAME}` }).click();
    await row.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(await getApi(w, apiPath(`actions/${actionId}/`))).toMatchObject({ deleted: true });
    expect((await getApi(w, apiPath('actions/'))).results.map((a: { id: number }) => a.id)).not.toContain(actionId);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
