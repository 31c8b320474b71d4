// The web app's faults a new user met (issue 31), each checked in Chromium against a real Hoglet:
// retention leaves periods to come blank and averages complete ones only, the people list names a
// person by a distinct id where they have no name, path labels are short, a From after To is refused,
// an error replaces the chart, and an event not seen yet can be picked. PostHog's own pageUrl cases
// (frontend/src/scenes/paths/pathUtils.test.ts) run on the label function without a browser.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { fitted, shortLabel } from '../../web/src/lib/paths.js';
import { captureBatch, daysAgo, hasChromium, legendItems, openInsight, openPage, pick, queryApi, screenshot, startWorld, tableRows, type World } from './harness.js';

const TIMEOUT = 60_000;
/** A busy machine (several engineers' tests at once) can take seconds to draw a page. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const DAY = 86_400_000;

describe('path labels (PostHog pathUtils.test.ts pageUrl cases)', () => {
  const from = ['1_https://example.com/'];
  it.each([
    ['hash based URL', '2_https://example.com/#/auth/login', '/#/auth/login'],
    ['unrelated hash in URL', '2_https://example.com/auth/login#sidepanel=explore', '/auth/login'],
    ['regular URL', '2_https://example.com/path', '/path'],
    ['URL-encoded characters (path cleaning aliases)', '2_https://example.com/files/<id>', '/files/<id>'],
  ])('%s', (_name, key, label) => {
    expect(shortLabel(key, from)).toBe(label);
  });

  it('a first step (no pages before it) or one reached from several sites keeps its host; other names stay whole', () => {
    expect(shortLabel('1_https://example.com/pricing?plan=pro', [])).toBe('example.com/pricing?plan=pro');
    expect(shortLabel('3_https://b.com/x', ['2_https://a.com/', '2_https://b.com/'])).toBe('b.com/x');
    expect(shortLabel('2_signed_up', from)).toBe('signed_up');
  });

  it('a sankey column gets the first 6 and last 8 characters past 15', () => {
    expect(fitted('/docs/getting-started/install')).toBe('/docs/.../install');
    expect(fitted('/pricing')).toBe('/pricing');
  });
});

/** The retention insight over the last 7 days, as a saved insight's query. */
const RECENT_RETENTION = {
  kind: 'RetentionQuery',
  dateRange: { date_from: '-7d' },
  retentionFilter: { period: 'Day', totalIntervals: 7, targetEntity: { id: 'came_back', type: 'events' }, returningEntity: { id: 'came_back', type: 'events' } },
};

async function setCustomRange(page: Page, from: string, to: string) {
  await page.getByLabel('Date range').selectOption('custom');
  await page.getByLabel('From', { exact: true }).fill(from);
  await page.getByLabel('To', { exact: true }).fill(to);
}

describe.skipIf(!hasChromium)('issue 31 web app fixes in Chromium', () => {
  let w: World;

  beforeAll(async () => {
    w = await startWorld();
    // Recent returns, so the last cohorts have periods still to come; none later than a minute ago.
    const at = (ms: number) => new Date(Math.min(ms, Date.now() - 60_000)).toISOString();
    const back = (distinct_id: string, days: number[]) => days.map((d) => ({ event: 'came_back', distinct_id, timestamp: at(daysAgo(d)), properties: {} }));
    await captureBatch(w, [...back('r1', [6, 5, 3, 1]), ...back('r2', [6, 4]), ...back('r3', [4, 3, 2, 1]), ...back('r4', [2, 1])]);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('retention: periods to come are blank, the one under way is marked, the mean counts complete periods only', async () => {
    const api = (await queryApi(w, RECENT_RETENTION)).results as { date: string; values: { count: number }[] }[];
    const res = await w.t.request(w.who.key, {
      method: 'POST',
      url: `/api/projects/${w.who.projectId}/insights/`,
      payload: { name: 'Recent returns', query: { kind: 'InsightVizNode', source: RECENT_RETENTION }, saved: true },
    });
    const shortId = res.json().short_id as string;
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights/${shortId}`);
    const grid = page.getByTestId('retention-grid');
    const rows = await tableRows(grid);
    const now = Date.now();
    const start = (row: { date: string }, k: number) => Date.parse(row.date) + k * DAY;
    expect(rows).toHaveLength(api.length);
    // Each row: cohort, size, then a cell per period; one not started yet is empty (PostHog drops it).
    api.forEach((row, i) => {
      const expected = row.values.map((v, k) => (start(row, k) > now ? '' : String(v.count)));
      expect(rows[i]!.cells.slice(2)).toEqual(expected);
    });
    const last = api[api.length - 1]!;
    expect(start(last, 1)).toBeGreaterThan(now);
    // The period under way (today's Day 0 for today's cohort) says so.
    const lastRow = grid.locator('tbody tr').last();
    expect(await lastRow.locator('td.cell').first().getAttribute('title')).toMatch(/^Period in progress/);

    // PostHog's simple mean per period: cohorts of size > 0 whose period has ended.
    const mean = api[0]!.values.map((_, k) => {
      const done = api.filter((row) => row.values[0]!.count > 0 && start(row, k + 1) <= now);
      if (done.length === 0) return undefined;
      const avg = done.reduce((sum, row) => sum + (row.values[k]!.count / row.values[0]!.count) * 100, 0) / done.length;
      return String(Math.round(avg * 10) / 10);
    });
    const shownMean = await page.getByTestId('retention-mean').locator('td.cell').evaluateAll((cells) => cells.map((c) => c.getAttribute('data-value') ?? undefined));
    expect(shownMean).toEqual(mean);
    expect(mean[mean.length - 1]).toBeUndefined();
    await screenshot(page, 'retention-periods-to-come');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('people: a person without a name property is shown by a distinct id, then the id, on the persons page and in a people panel', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/persons`);
    const table = page.getByTestId('persons-table');
    const everyone = await queryApi(w, { kind: 'ActorsQuery', select: ['person', 'id'], orderBy: ['created_at DESC'], limit: 50 });
    const expected = everyone.results.map(([person, id]: [{ distinct_ids: string[]; properties: Record<string, unknown> }, string]) =>
      [typeof person.properties.email === 'string' ? person.properties.email : person.distinct_ids[0], id]);
    await poll(async () => (await tableRows(table)).map((r) => r.cells.slice(0, 2))).toEqual(expected);
    expect(expected.map((r: string[]) => r[0])).toContain('p3');
    await screenshot(page, 'persons-distinct-ids');

    // The people behind a retention cohort: p3 (no email) is "p3", not its UUID.
    const view = await openInsight(w, page, 'retention');
    await view.getByTestId('retention-grid').locator('tbody tr').nth(1).click();
    const panel = page.getByTestId('people-panel');
    const p3 = panel.locator('li[data-distinct-ids="p3"]');
    await poll(() => p3.locator('strong').textContent()).toBe('p3');
    const uuid = everyone.results.find(([person]: [{ distinct_ids: string[] }]) => person.distinct_ids.includes('p3'))[1];
    expect(await p3.textContent()).not.toContain(uuid);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('paths: labels are the short form PostHog shows (host dropped after the first step), the whole URL a tooltip', async () => {
    const { page, context, problems } = await openPage(w);
    const view = await openInsight(w, page, 'paths');
    const items = await legendItems(view);
    const byKey = new Map(items.map((i) => [i.key, i.label]));
    expect(byKey.get('1_https://example.com')).toBe('1. example.com/');
    expect(byKey.get('2_https://example.com/pricing')).toBe('2. /pricing');
    const label = view.getByTestId('legend').locator('li[data-key="2_https://example.com/pricing"] .legend-label');
    expect(await label.getAttribute('title')).toBe('https://example.com/pricing');
    // Labels never spill over their neighbours: each keeps to its box (cut with an ellipsis).
    const spills = await view.getByTestId('legend').locator('.legend-label').evaluateAll((els) => els.filter((e) => (globalThis as any).getComputedStyle(e).textOverflow !== 'ellipsis').length);
    expect(spills).toBe(0);
    await screenshot(page, 'paths-short-labels');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('date range: a From after To is refused with a message, Save stays off and nothing runs until it is fixed', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights/new`);
    await page.getByTestId('builder-preview').and(page.locator('[data-state="ready"]')).waitFor();
    await setCustomRange(page, '2024-01-07', '2024-01-01');
    await poll(() => page.getByRole('alert').first().textContent()).toMatch(/start date is after the end date/);
    expect(await page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(true);
    await screenshot(page, 'date-range-refused');
    await page.getByLabel('To', { exact: true }).fill('2024-01-08');
    await poll(() => page.getByRole('button', { name: 'Save' }).isDisabled()).toBe(false);
    expect(await page.getByRole('alert').count()).toBe(0);

    // On a saved insight's page the range is not run either: the old chart gives way to the message.
    await openInsight(w, page, 'trends');
    await setCustomRange(page, '2024-01-07', '2024-01-01');
    await poll(() => page.locator('.insight-view').count()).toBe(0);
    expect(await page.getByRole('alert').first().textContent()).toMatch(/start date is after the end date/);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('an error replaces the chart (insight page and builder), and the next good answer brings a chart back', async () => {
    const { page, context } = await openPage(w);
    await openInsight(w, page, 'retention');
    await page.getByTestId('retention-grid').waitFor();
    // Hourly cohorts over all time: more buckets than a query may have, the API's 400.
    await page.locator('select[name="period"]').selectOption('Hour');
    await page.getByTestId('retention-grid').waitFor();
    await page.getByLabel('Date range').selectOption('all');
    const error = page.getByTestId('insight-error');
    await poll(() => error.textContent()).toMatch(/too many hours/);
    expect(await page.getByTestId('retention-grid').count()).toBe(0);
    await screenshot(page, 'insight-error-replaces-chart');
    await page.locator('select[name="period"]').selectOption('Week');
    await page.getByTestId('retention-grid').waitFor();
    expect(await error.count()).toBe(0);

    await page.goto(`${w.base}/project/${w.who.projectId}/insights/new`);
    await page.getByRole('tab', { name: 'Retention' }).click();
    await page.getByTestId('builder-preview').getByTestId('retention-grid').waitFor();
    await page.locator('select[name="period"]').selectOption('Hour');
    await page.getByLabel('Date range').selectOption('all');
    await poll(() => page.getByTestId('builder-preview').getByTestId('insight-error').textContent()).toMatch(/too many hours/);
    expect(await page.getByTestId('builder-preview').getByTestId('retention-grid').count()).toBe(0);
    await context.close();
  }, TIMEOUT);

  it('an event not seen yet can be picked (PostHog\'s "Not seen yet" option) and is queried as typed', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights/new`);
    const first = page.getByTestId('series-0');
    const box = first.getByRole('combobox', { name: 'Series 1 event' });
    await box.click();
    await box.fill('checkout_started');
    const option = first.getByRole('listbox', { name: 'Series 1 event' }).getByRole('option');
    await poll(() => option.allTextContents()).toEqual(['Select event: checkout_startedNot seen yet']);
    await screenshot(page, 'event-not-seen-yet');
    await option.first().click();
    await poll(() => box.inputValue()).toBe('checkout_started');
    const preview = page.getByTestId('builder-preview');
    await preview.and(page.locator('[data-state="ready"]')).waitFor();
    expect((await legendItems(preview)).map((i) => [i.label, i.value])).toEqual([['checkout_started', '0']]);
    // An existing name is still picked from the list.
    await pick(first, 'Series 1 event', 'sign', 'signed_up');
    await poll(() => box.inputValue()).toBe('signed_up');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
