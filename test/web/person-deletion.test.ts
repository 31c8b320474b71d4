// Deleting a person from their page in Chromium (issue 32): "Delete person", events ticked, sends
// PostHog's DELETE …/persons/:id/?delete_events=true; the People list then holds what the API
// lists (without them), and their events are gone from HogQL's count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getApi, hasChromium, openPage, queryApi, screenshot, startWorld, tableRows, type World } from './harness.js';

const TIMEOUT = 60_000;

describe.skipIf(!hasChromium)('deleting a person in Chromium', () => {
  let w: World;

  beforeAll(async () => {
    w = await startWorld();
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it("a person's page deletes them and their events; People lists what the API lists", async () => {
    const { page, context, problems } = await openPage(w);
    const base = `/api/projects/${w.who.projectId}`;
    const target = (await getApi(w, `${base}/persons/?search=p1@example.com`)).results[0];
    const events = async () => (await queryApi(w, { kind: 'HogQLQuery', query: `select count() from events where person_id = '${target.id}'` })).results[0][0];
    expect(await events()).toBeGreaterThan(0);

    await page.goto(`${w.base}/project/${w.who.projectId}/person/${target.id}`);
    await expect.poll(() => page.getByTestId('person-name').textContent()).toBe('p1@example.com');
    await expect.poll(() => page.getByTestId('event-row').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Delete person' }).click();
    const dialog = page.getByTestId('delete-person');
    expect(await dialog.getByRole('checkbox', { name: 'Also delete their events' }).isChecked()).toBe(true);
    await screenshot(page, 'person-delete');
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();

    await page.waitForURL(`${w.base}/project/${w.who.projectId}/persons`);
    const everyone = await queryApi(w, { kind: 'ActorsQuery', select: ['person_display_name -- Person', 'id', 'created_at'], orderBy: ['created_at DESC'], limit: 50 });
    const ids = (everyone.results as unknown[][]).map((r) => r[1]);
    expect(ids).not.toContain(target.id);
    await expect.poll(async () => (await tableRows(page.getByTestId('persons-table'))).map((r) => r.cells[1])).toEqual(ids);
    expect(await events()).toBe(0);
    const log = await getApi(w, `${base}/persons/${target.id}/activity/`);
    expect(log.results.map((e: { activity: string; user: { email: string } }) => [e.activity, e.user.email])).toEqual([['deleted', w.who.email]]);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
