// The SQL editor in Chromium against a real Hoglet: HogQL typed into CodeMirror is highlighted,
// completed from the server's HogQLAutocomplete and checked by its HogQLMetadata (an underline
// where the error is), and without those two kinds still runs; a run's table is the HogQLQuery's
// answer, drawn within 50 ms of it arriving; a run that fails shows its error and no old result;
// {filters} takes the date range and property filters; the answer as a bar chart is saved as
// PostHog's DataVisualizationNode, opens back from the insights list into the editor, and goes on
// a dashboard whose tile draws it.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApi, hasChromium, legendItems, openPage, pick, queryApi, screenshot, startWorld, type World } from './harness.js';

const TIMEOUT = 90_000;
const QUERY = 'select event, count() as c from events group by event order by c desc, event';
const BROKEN = 'select nosuchcolumn from events';

/** Replaces the editor's text by typing, as a user would (completion popups closed after). */
async function typeQuery(page: Page, text: string): Promise<void> {
  const content = page.locator('.cm-content');
  await content.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
  await page.keyboard.press('Escape');
  await expect.poll(() => content.evaluate((el) => (el as any).innerText.replace(/\u00a0/g, ' '))).toBe(text);
}

/** The result table: header names and types, and every cell's data-value. */
const sqlTable = (page: Page) => page.getByTestId('sql-table').evaluate((table) => ({
  columns: Array.from(table.querySelectorAll('thead th')).map((th: any) => th.firstChild?.textContent ?? ''),
  types: Array.from(table.querySelectorAll('thead th')).map((th: any) => th.getAttribute('data-type')),
  rows: Array.from(table.querySelectorAll('tbody tr')).map((tr: any) => Array.from(tr.children).map((td: any) => td.getAttribute('data-value'))),
}));

/** An API answer as the table writes it: numbers and strings as text, null as "null". */
const asCells = (rows: unknown[][]) => rows.map((r) => r.map((v) => (v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v))));

describe.skipIf(!hasChromium)('the SQL editor in Chromium', () => {
  let w: World;
  let savedShortId = '';

  beforeAll(async () => {
    w = await startWorld();
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  const queryUrl = () => `/api/projects/${w.who.projectId}/query/`;
  const post = async (query: object) => {
    const res = await w.t.request(w.who.key, { method: 'POST', url: queryUrl(), payload: { query } });
    return { status: res.statusCode, body: res.json() };
  };

  it('highlights HogQL, completes from HogQLAutocomplete, underlines what HogQLMetadata says is wrong', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'SQL', exact: true }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/sql`);
    await page.locator('.cm-content').waitFor();

    // Highlighting: the lezer SQL grammar's tokens as tok-* classes.
    await typeQuery(page, "select event, 'a string', 42 from events");
    expect(await page.locator('.cm-content .tok-keyword').allTextContents()).toEqual(['select', 'from']);
    expect(await page.locator('.cm-content .tok-string').allTextContents()).toEqual(["'a string'"]);
    expect(await page.locator('.cm-content .tok-number').allTextContents()).toEqual(['42']);

    // Completion: the list is the server's suggestions for the word being typed.
    await typeQuery(page, 'select ');
    await page.keyboard.type('eve');
    const typed = 'select eve';
    const server = await post({ kind: 'HogQLAutocomplete', language: 'hogQL', query: typed, startPosition: 7, endPosition: typed.length });
    const list = page.locator('.cm-tooltip-autocomplete li');
    expect(server.status).toBe(200);
    const labels = (server.body.suggestions as { label: string }[]).map((s) => s.label);
    await list.first().waitFor();
    const shown = await list.evaluateAll((items) => items.map((li) => li.querySelector('.cm-completionLabel')?.textContent ?? ''));
    // The editor narrows the server's list to what matches "eve" (PostHog's answer is every
    // field and function in scope, as Monaco filters it): nothing else, and every prefix match.
    expect(labels).toEqual(expect.arrayContaining(shown));
    expect(shown).toEqual(expect.arrayContaining(labels.filter((l) => l.toLowerCase().startsWith('eve'))));
    expect(shown[0]).toBe('event');
    await screenshot(page, 'sql-editor-completion');
    await page.keyboard.press('Escape');

    // An unknown column: underlined exactly where HogQLMetadata says, its message listed.
    await typeQuery(page, BROKEN);
    const metadata = await post({ kind: 'HogQLMetadata', language: 'hogQL', query: BROKEN });
    expect(metadata.status).toBe(200);
    expect(metadata.body.isValid).toBe(false);
    const [error] = metadata.body.errors as { message: string; start: number; end: number }[];
    expect(BROKEN.slice(error!.start, error!.end)).toBe('nosuchcolumn');
    await expect.poll(() => page.locator('.cm-lintRange-error').allTextContents()).toEqual(['nosuchcolumn']);
    const listed = page.getByTestId('sql-problems').locator('li');
    await expect.poll(() => listed.allTextContents()).toEqual([`Line 1, column ${error!.start + 1}: ${error!.message}`]);
    expect(await listed.first().getAttribute('data-start')).toBe(String(error!.start));
    expect(await listed.first().getAttribute('data-end')).toBe(String(error!.end));
    await screenshot(page, 'sql-editor-error');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('without HogQLAutocomplete and HogQLMetadata (a server before them): no list, no underline, and runs still work', async () => {
    const { page, context, problems } = await openPage(w);
    // Those two kinds answered as an older Hoglet answers a kind it does not know.
    await page.route('**/api/projects/*/query/', async (route) => {
      const kind = JSON.parse(route.request().postData() ?? '{}')?.query?.kind;
      if (kind !== 'HogQLAutocomplete' && kind !== 'HogQLMetadata') return route.continue();
      await route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ type: 'validation_error', code: 'invalid_choice', detail: `${kind} is not supported`, attr: 'query' }) });
    });
    await page.goto(`${w.base}/project/${w.who.projectId}/sql`);
    await typeQuery(page, 'select eve');
    await page.waitForTimeout(600);
    expect(await page.locator('.cm-tooltip-autocomplete').count()).toBe(0);
    expect(await page.locator('.cm-lintRange-error').count()).toBe(0);
    expect(await page.getByTestId('sql-problems').count()).toBe(0);
    await typeQuery(page, QUERY);
    await page.getByRole('button', { name: 'Run' }).click();
    const api = await queryApi(w, { kind: 'HogQLQuery', query: QUERY });
    await expect.poll(async () => (await sqlTable(page)).rows).toEqual(asCells(api.results));
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('runs (Cmd/Ctrl+Enter and the button): the table is the API\'s answer, drawn within 50 ms; a failed run leaves no old result', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/sql`);
    await typeQuery(page, QUERY);
    await page.keyboard.press('Control+Enter');
    const api = await queryApi(w, { kind: 'HogQLQuery', query: QUERY });
    await expect.poll(() => sqlTable(page)).toEqual({
      columns: api.columns,
      types: (api.types as [string, string][]).map(([, t]) => t),
      rows: asCells(api.results),
    });
    expect(api.results).toEqual([['$pageview', 16], ['signed_up', 3], ['purchase', 2]]);
    expect(await page.getByTestId('sql-row-count').getAttribute('data-value')).toBe('3');
    // From the answer arriving to the frame that shows it: the median of 7 runs (2 shared cores
    // here, so one run can meet another process's work).
    const draws = () => page.evaluate(() => performance.getEntriesByName('hoglet:sql-draw').map((e) => e.duration));
    await expect.poll(async () => (await draws()).length).toBe(1);
    for (let run = 2; run <= 7; run++) {
      await page.getByRole('button', { name: 'Run' }).click();
      await expect.poll(async () => (await draws()).length).toBe(run);
    }
    const times = (await draws()).sort((a, b) => a - b);
    const median = times[3]!;
    console.log(`SQL editor: first result drawn after the response, median ${median.toFixed(1)} ms of 7 (min ${times[0]!.toFixed(1)}, max ${times[6]!.toFixed(1)})`);
    expect(median).toBeLessThan(50);
    await screenshot(page, 'sql-editor');

    // A failed run: its message and position, and the old table gone.
    await typeQuery(page, BROKEN);
    await page.getByRole('button', { name: 'Run' }).click();
    const failure = await w.t.request(w.who.key, { method: 'POST', url: queryUrl(), payload: { query: { kind: 'HogQLQuery', query: BROKEN } } });
    expect(failure.statusCode).toBe(400);
    const alert = page.getByTestId('sql-run-error');
    await alert.waitFor();
    expect(await alert.locator('.sql-error-message').textContent()).toBe(failure.json().detail);
    const start = failure.json().extra.hogql_metadata.errors[0].start as number;
    expect(await alert.textContent()).toContain(`At line 1, column ${start + 1}.`);
    expect(await page.getByTestId('sql-result').count()).toBe(0);
    expect(await page.getByTestId('sql-table').count()).toBe(0);
    await screenshot(page, 'sql-editor-run-error');

    // {filters}: the date range picked fills the placeholder, as HogQLQuery.filters.dateRange.
    const filtered = 'select count() as c from events where {filters}';
    await typeQuery(page, filtered);
    await page.locator('select[name=sql-date-range]').selectOption('custom');
    await page.locator('input[name=sql-date-range-from]').fill('2024-01-02');
    await page.locator('input[name=sql-date-range-to]').fill('2024-01-03');
    await page.getByRole('button', { name: 'Run' }).click();
    const ranged = await queryApi(w, { kind: 'HogQLQuery', query: filtered, filters: { dateRange: { date_from: '2024-01-02', date_to: '2024-01-03' } } });
    const everything = await queryApi(w, { kind: 'HogQLQuery', query: filtered });
    expect(ranged.results[0][0]).toBeLessThan(everything.results[0][0]);
    await expect.poll(async () => (await sqlTable(page)).rows).toEqual(asCells(ranged.results));

    // And a property filter, as HogQLQuery.filters.properties.
    await page.getByRole('button', { name: '+ Add filter' }).click();
    await pick(page, 'Filter 1 property', '$brow', '$browser');
    // The week's events are old: no value suggestions, so the value is typed (Enter takes it).
    const value = page.getByRole('combobox', { name: 'Filter 1 value', exact: true });
    await value.click();
    await value.fill('Chrome');
    await value.press('Enter');
    await page.locator('.chip', { hasText: 'Chrome' }).waitFor();
    await page.getByRole('button', { name: 'Run' }).click();
    const chrome = await queryApi(w, {
      kind: 'HogQLQuery',
      query: filtered,
      filters: { dateRange: { date_from: '2024-01-02', date_to: '2024-01-03' }, properties: [{ key: '$browser', operator: 'exact', type: 'event', value: ['Chrome'] }] },
    });
    expect(chrome.results[0][0]).toBeLessThan(ranged.results[0][0]);
    await expect.poll(async () => (await sqlTable(page)).rows).toEqual(asCells(chrome.results));
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('draws a bar chart of chosen columns, saves it as a DataVisualizationNode, reopens it from the insights list, adds it to a dashboard', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/sql`);
    await typeQuery(page, QUERY);
    await page.getByRole('button', { name: 'Run' }).click();
    await page.getByTestId('sql-table').waitFor();
    await page.locator('select[name=sql-display]').selectOption('ActionsBar');
    await page.locator('select[name=sql-x]').selectOption('event');
    await page.locator('select[name=sql-y]').selectOption('c');
    const chart = page.getByTestId('sql-chart');
    expect(await chart.getAttribute('data-display')).toBe('ActionsBar');
    expect(await chart.locator('canvas').getAttribute('aria-label')).toBe('Bar chart of c by event');
    // The y column's total beside its swatch: 16 + 3 + 2 events.
    expect(await legendItems(chart)).toEqual([{ key: 'c', label: 'c', value: '21' }]);
    await screenshot(page, 'sql-editor-bar');

    // Saved: PostHog's DataVisualizationNode around the HogQLQuery.
    await page.locator('input[name=insight-name]').fill('Events by count');
    await page.getByRole('button', { name: 'Save as insight' }).click();
    await expect.poll(() => page.getByTestId('sql-message').textContent()).toBe('Saved as a new insight.');
    await page.waitForURL(/\/sql\?open_insight=/);
    savedShortId = new URL(page.url()).searchParams.get('open_insight')!;
    const list = await getApi(w, `/api/projects/${w.who.projectId}/insights/?short_id=${savedShortId}`);
    const saved = list.results[0];
    expect(saved.name).toBe('Events by count');
    expect(saved.query).toEqual({
      kind: 'DataVisualizationNode',
      source: { kind: 'HogQLQuery', query: QUERY },
      display: 'ActionsBar',
      chartSettings: { xAxis: { column: 'event' }, yAxis: [{ column: 'c' }] },
    });

    // From the insights list to its page (the chart and table) and, by Edit, into the editor.
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    await page.getByTestId('insights-table').getByRole('link', { name: 'Events by count' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/insights/${savedShortId}`);
    await page.locator('.insight-view [data-testid=sql-chart][data-display=ActionsBar] canvas').waitFor();
    const api = await queryApi(w, { kind: 'HogQLQuery', query: QUERY });
    expect((await sqlTable(page)).rows).toEqual(asCells(api.results));
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/sql?open_insight=${savedShortId}`);
    await expect.poll(() => page.locator('.cm-content').evaluate((el) => (el as any).innerText.replace(/\u00a0/g, ' '))).toBe(QUERY);
    expect(await page.locator('select[name=sql-display]').inputValue()).toBe('ActionsBar');
    expect(await page.getByTestId('sql-insight').textContent()).toBe('Editing Events by count');
    await page.getByTestId('sql-chart').locator('canvas').waitFor();

    // An edit saves over the same insight.
    await page.locator('select[name=sql-display]').selectOption('ActionsLineGraph');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect.poll(() => page.getByTestId('sql-message').textContent()).toBe('Saved.');
    const after = await getApi(w, `/api/projects/${w.who.projectId}/insights/${saved.id}/`);
    expect(after.query.display).toBe('ActionsLineGraph');

    // On a dashboard: the tile draws the chart.
    await page.getByRole('button', { name: 'Add to dashboard' }).click();
    const popover = page.getByTestId('add-to-dashboard');
    await popover.locator('select[name=dashboard]').selectOption(String(w.dashboardId));
    await popover.getByRole('button', { name: 'Add', exact: true }).click();
    await popover.getByRole('status').waitFor();
    expect((await getApi(w, `/api/projects/${w.who.projectId}/insights/${saved.id}/`)).dashboards).toEqual([w.dashboardId]);
    await page.goto(`${w.base}/project/${w.who.projectId}/dashboard/${w.dashboardId}`);
    const tile = page.locator(`[data-testid=dashboard-tile][data-insight="${savedShortId}"]`);
    await tile.locator('[data-testid=sql-chart][data-display=ActionsLineGraph] canvas').waitFor();
    await screenshot(page, 'sql-editor-dashboard');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
