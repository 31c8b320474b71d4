// Annotations in Chromium against a real Hoglet: a date under the trend chart is annotated from
// the page, the API stores it as PostHog's (date_marker at that day, the insight's id), the badge
// is there after a reload with what, who and when on hover, on the dashboard tile of the same
// insight too, and deleting it from the tile's popover soft-deletes it through the API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApi, hasChromium, openPage, screenshot, startWorld, type World } from './harness.js';

const TIMEOUT = 90_000;
const NOTE = 'Pricing page v2 launched';

describe.skipIf(!hasChromium)('annotations in Chromium', () => {
  let w: World;
  const list = async () => (await getApi(w, `/api/projects/${w.who.projectId}/annotations/`)).results as any[];

  beforeAll(async () => {
    w = await startWorld();
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('annotates a date of the trend from the chart; the marker is there after a reload and on the dashboard tile; deleting it there removes it', async () => {
    const { page, context, problems } = await openPage(w);
    const insightUrl = `${w.base}/project/${w.who.projectId}/insights/${w.insights.trends.short_id}`;
    await page.goto(insightUrl);
    const strip = page.locator('.insight-view [data-testid=annotation-strip]');
    // One slot per day of the week (2024-01-01 .. 2024-01-07), none annotated yet.
    await expect.poll(() => strip.locator('button').count()).toBe(7);
    expect(await strip.getByTestId('annotation-badge').count()).toBe(0);

    // The third day: 2024-01-03.
    await strip.hover();
    await strip.locator('button').nth(2).click();
    const form = page.getByTestId('annotation-form');
    await form.getByLabel('Note').fill(NOTE);
    expect(await form.getByLabel('Show on').inputValue()).toBe('dashboard_item');
    await screenshot(page, 'annotations-form');
    await form.getByRole('button', { name: 'Save' }).click();
    await strip.getByTestId('annotation-badge').waitFor();

    const stored = await list();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      content: NOTE,
      date_marker: '2024-01-03T00:00:00Z',
      scope: 'dashboard_item',
      dashboard_item: w.insights.trends.id,
      insight_short_id: w.insights.trends.short_id,
      creation_type: 'USR',
      created_by: { email: w.who.email },
    });

    await page.reload();
    const badge = strip.getByTestId('annotation-badge');
    await badge.waitFor();
    expect(await badge.count()).toBe(1);
    expect(await badge.textContent()).toBe('1');
    // The badge sits under the third day's slot.
    expect(await strip.locator('button').nth(2).getAttribute('data-testid')).toBe('annotation-badge');
    await badge.hover();
    const tip = page.getByTestId('annotation-tip');
    await tip.waitFor();
    expect(await tip.textContent()).toContain(NOTE);
    expect(await tip.textContent()).toContain('ada');
    expect(await tip.textContent()).toContain('2024-01-03');
    await screenshot(page, 'annotations-insight');

    // The dashboard: the trends tile shows it; the other kinds' tiles carry no strip.
    await page.goto(`${w.base}/project/${w.who.projectId}/dashboard/${w.dashboardId}`);
    const tile = page.locator(`[data-testid=dashboard-tile][data-insight="${w.insights.trends.short_id}"]`);
    const tileBadge = tile.getByTestId('annotation-badge');
    await tileBadge.waitFor();
    expect(await page.getByTestId('annotation-badge').count()).toBe(1);
    await tileBadge.click();
    const panel = tile.getByTestId('annotation-panel');
    expect(await panel.getByTestId('annotation-item').textContent()).toContain(NOTE);
    await screenshot(page, 'annotations-dashboard');
    await panel.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => tile.getByTestId('annotation-badge').count()).toBe(0);
    expect(await list()).toEqual([]);
    // Soft-deleted, as PostHog keeps annotations: the activity log has it deleted, not gone.
    const log = await w.t.services.repositories.activityLog.listForItem(w.who.projectId, 'Annotation', String(stored[0].id), { limit: 10, offset: 0 });
    expect(log.rows.map((e) => e.activity)).toEqual(['deleted', 'created']);

    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('a click on a date label opens its form; a project annotation edited from its popover shows with the new text', async () => {
    const created = await w.t.request(w.who.key, {
      method: 'POST',
      url: `/api/projects/${w.who.projectId}/annotations/`,
      payload: { content: 'Campaign starts', scope: 'project', date_marker: '2024-01-05T09:30:00Z' },
    });
    expect(created.statusCode).toBe(201);
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights/${w.insights.trends.short_id}`);
    const strip = page.locator('.insight-view [data-testid=annotation-strip]');
    const badge = strip.getByTestId('annotation-badge');
    await badge.waitFor();
    // 09:30 on the 5th is in the 5th's bucket.
    expect(await strip.locator('button').nth(4).getAttribute('data-testid')).toBe('annotation-badge');
    // A click on a date label of the x axis opens that date's form.
    const slot = await strip.locator('button').nth(5).boundingBox();
    const canvas = await page.locator('.insight-view canvas').boundingBox();
    await page.mouse.click(slot!.x + slot!.width / 2, canvas!.y + canvas!.height - 8);
    await page.getByRole('dialog', { name: 'Annotations on 6-Jan-2024' }).getByTestId('annotation-form').waitFor();
    await page.getByRole('dialog', { name: 'Annotations on 6-Jan-2024' }).getByRole('button', { name: 'Close' }).click();

    await badge.click();
    const panel = page.getByTestId('annotation-panel');
    await panel.getByRole('button', { name: 'Edit' }).click();
    await panel.getByLabel('Note').fill('Campaign starts (email)');
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect.poll(async () => (await list()).map((a) => a.content)).toEqual(['Campaign starts (email)']);
    await page.getByTestId('annotation-item').filter({ hasText: 'Campaign starts (email)' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
