// Activity, people and project settings in Chromium against a real Hoglet: the events page
// lists what an EventsQuery answers, newest first; a person's page shows their properties and
// events; settings saved in the page are what GET /api/projects/:id/ answers after a reload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureNow, getApi, hasChromium, openPage, pick, queryApi, screenshot, startWorld, tableRows, type World } from './harness.js';

const TIMEOUT = 60_000;
const COLUMNS = ['*', 'event', 'person_display_name -- Person', 'timestamp'];

describe.skipIf(!hasChromium)('activity, people and settings in Chromium', () => {
  let w: World;

  beforeAll(async () => {
    w = await startWorld();
    await captureNow(w, [
      { event: 'app_opened', distinct_id: 'p1', properties: { $current_url: 'https://example.com/app' } },
      { event: 'button_clicked', distinct_id: 'p2', properties: { button: 'buy', $current_url: 'https://example.com/pricing' } },
      { event: 'button_clicked', distinct_id: 'p5', properties: { button: 'cancel', $current_url: 'https://example.com/pricing' } },
      { event: 'newest_event', distinct_id: 'p5', properties: { color: 'green', nested: { a: 1 } } },
    ]);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('activity: the newest events first, as the EventsQuery answers; filters by event and property; a row opens its properties', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/events`);
    const rows = page.getByTestId('event-row');
    const api = await queryApi(w, { kind: 'EventsQuery', select: COLUMNS, orderBy: ['timestamp DESC'], after: '-24h', limit: 100 });
    const uuids = (api.results as [{ uuid: string; event: string }][]).map((r) => r[0].uuid);
    expect(api.results[0][1]).toBe('newest_event');
    await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-uuid')))).toEqual(uuids);
    expect(await rows.first().getAttribute('data-event')).toBe('newest_event');
    expect(await rows.first().locator('td').nth(1).textContent()).toBe('p5@example.com');
    await screenshot(page, 'events');

    // A click opens the event's properties as a key/value table.
    await rows.first().click();
    const props = page.getByTestId('event-properties').getByTestId('properties-table');
    // `$ip`: capture records the client's address (this test's, on loopback: no location).
    expect(Object.fromEntries((await tableRows(props)).map((r) => [r.cells[0], r.cells[1]]))).toEqual({ $ip: '127.0.0.1', color: 'green', nested: '{"a":1}' });
    await screenshot(page, 'event-expanded');
    await rows.first().click();
    expect(await page.getByTestId('event-properties').count()).toBe(0);

    // By event.
    await pick(page, 'Event', 'button', 'button_clicked');
    const clicks = await queryApi(w, { kind: 'EventsQuery', select: COLUMNS, orderBy: ['timestamp DESC'], after: '-24h', limit: 100, event: 'button_clicked' });
    expect(clicks.results.length).toBe(2);
    await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-uuid'))))
      .toEqual((clicks.results as [{ uuid: string }][]).map((r) => r[0].uuid));

    // And by property, the value picked from the values list.
    await page.getByRole('button', { name: '+ Add filter' }).click();
    await pick(page, 'Filter 1 property', 'butt', 'button');
    await pick(page, 'Filter 1 value', '', 'buy');
    await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.querySelector('td:nth-child(2)')?.textContent))).toEqual(['p2@example.com']);

    // Older events are a range away.
    await page.getByRole('button', { name: 'Remove filter 1' }).click();
    await pick(page, 'Event', 'sign', 'signed_up');
    await page.getByLabel('Time').selectOption('all');
    const signups = await queryApi(w, { kind: 'EventsQuery', select: COLUMNS, orderBy: ['timestamp DESC'], after: 'all', limit: 100, event: 'signed_up' });
    await expect.poll(() => rows.count()).toBe(signups.results.length);

    // Auto-refresh: a new event shows up without a reload.
    await pick(page, 'Event', 'all', 'All events');
    await page.getByLabel('Auto-refresh every 5 s').check();
    await captureNow(w, [{ event: 'arrived_later', distinct_id: 'p3' }]);
    await expect.poll(() => rows.first().getAttribute('data-event'), { timeout: 8_000 }).toBe('arrived_later');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('people: found by email; their page shows their properties and latest events', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    await page.getByRole('link', { name: 'People' }).click();
    const table = page.getByTestId('persons-table');
    const everyone = await queryApi(w, { kind: 'ActorsQuery', select: ['person_display_name -- Person', 'id', 'created_at'], orderBy: ['created_at DESC'], limit: 50 });
    await expect.poll(async () => (await tableRows(table)).map((r) => r.cells[1])).toEqual(everyone.results.map((r: unknown[]) => r[1]));
    await screenshot(page, 'persons');

    await page.getByRole('searchbox', { name: 'Search people' }).fill('p2@example');
    await expect.poll(async () => (await tableRows(table)).map((r) => r.cells[0])).toEqual(['p2@example.com']);
    await table.getByRole('link', { name: 'p2@example.com' }).click();
    await page.waitForURL(new RegExp(`/project/${w.who.projectId}/person/[0-9a-f-]+$`));
    const id = page.url().split('/').pop()!;
    const person = await getApi(w, `/api/projects/${w.who.projectId}/persons/${id}/`);
    await expect.poll(() => page.getByTestId('person-name').textContent()).toBe('p2@example.com');
    expect(await page.getByTestId('distinct-ids').textContent()).toBe(person.distinct_ids.join(', '));
    const props = await tableRows(page.getByTestId('person-properties'));
    expect(Object.fromEntries(props.map((r) => [r.cells[0], r.cells[1]]))).toEqual(
      Object.fromEntries(Object.entries(person.properties as Record<string, unknown>).map(([k, v]) => [k, String(v)])));
    expect(props.find((r) => r.cells[0] === 'email')?.cells[1]).toBe('p2@example.com');

    const events = await queryApi(w, { kind: 'EventsQuery', select: COLUMNS, orderBy: ['timestamp DESC'], after: 'all', limit: 50, personId: id });
    await expect.poll(() => page.getByTestId('event-row').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-event'))))
      .toEqual((events.results as unknown[][]).map((r) => r[1]));
    expect(events.results[0][1]).toBe('button_clicked');
    await screenshot(page, 'person');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('cohorts: made in the page, counted, listed, and holding the people the API says', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    await page.getByRole('link', { name: 'Cohorts' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/cohorts`);
    await page.getByRole('link', { name: 'New cohort' }).click();
    let form = page.getByRole('form', { name: 'New cohort' });
    await form.getByLabel('Name').fill('Clicked a button');
    await form.getByLabel('Group 1 criterion 1 kind').selectOption('performed_event');
    await pick(form, 'Group 1 criterion 1 event', 'button_clicked', 'button_clicked');
    await form.getByLabel('Group 1 criterion 1 period count').fill('7');
    await form.getByRole('button', { name: 'Create cohort' }).click();
    await page.waitForURL(new RegExp(`/project/${w.who.projectId}/cohorts/\\d+$`));
    const id = page.url().split('/').pop()!;
    expect(await page.getByTestId('cohort-criteria').textContent()).toBe('did button_clicked in the last 7 days');
    // Counted in the background: the page polls until the count is in, and it is the API's.
    await expect.poll(() => page.getByTestId('cohort-count').getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    const cohort = await getApi(w, `/api/projects/${w.who.projectId}/cohorts/${id}/`);
    expect(cohort.count).toBe(2);
    expect(await page.getByTestId('cohort-count').textContent()).toBe('2');
    const members = await getApi(w, `/api/projects/${w.who.projectId}/cohorts/${id}/persons/`);
    await expect.poll(async () => (await tableRows(page.getByTestId('cohort-persons'))).map((r) => r.cells[1]).sort())
      .toEqual(members.results.map((p: { id: string }) => p.id).sort());
    await screenshot(page, 'cohort');

    // The list shows it with its size; a bad condition shows the API's detail.
    await page.getByRole('link', { name: 'Cohorts' }).click();
    const row = page.getByTestId('cohorts-table').locator(`tr[data-id="${id}"]`);
    await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('2');
    await screenshot(page, 'cohorts');
    await page.getByRole('link', { name: 'New cohort' }).click();
    form = page.getByRole('form', { name: 'New cohort' });
    await form.getByLabel('Name').fill('Bad');
    await form.getByLabel('Group 1 criterion 1 kind').selectOption('performed_event');
    await pick(form, 'Group 1 criterion 1 event', 'button_clicked', 'button_clicked');
    await form.getByLabel('Group 1 criterion 1 period count').fill('20000');
    await form.getByRole('button', { name: 'Create cohort' }).click();
    // The API's 400 names the field; the editor shows it beside the period count.
    await expect.poll(() => form.getByTestId('criterion').getByRole('alert').textContent()).toBe('Ensure this value is less than or equal to 10000.');
    expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('settings: time zone, a test-account filter and path rules survive a reload and are what the API answers; the token resets', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    await page.getByRole('link', { name: 'Settings' }).click();
    const before = await getApi(w, `/api/projects/${w.who.projectId}/`);
    await expect.poll(() => page.getByTestId('project-token').textContent()).toBe(before.api_token);

    const zone = page.getByTestId('settings-timezone');
    await zone.getByLabel('Time zone').selectOption('Europe/Paris');
    await zone.getByRole('button', { name: 'Save' }).click();
    await zone.getByRole('status').waitFor();

    const tests = page.getByTestId('settings-test-accounts');
    await tests.getByRole('button', { name: '+ Add filter' }).click();
    const n = before.test_account_filters.length + 1;
    await tests.getByLabel(`Filter ${n} property type`).selectOption('person');
    await pick(tests, `Filter ${n} property`, 'ema', 'email');
    await tests.getByLabel(`Filter ${n} operator`).selectOption('not_icontains');
    const value = tests.getByRole('combobox', { name: `Filter ${n} value`, exact: true });
    await value.fill('@example.org');
    await value.press('Enter');
    await tests.getByLabel('Filter out test users in new insights by default').check();
    await tests.getByRole('button', { name: 'Save' }).click();
    await tests.getByRole('status').waitFor();

    const paths = page.getByTestId('settings-path-cleaning');
    await paths.getByRole('button', { name: '+ Add rule' }).click();
    await paths.getByLabel('Rule 1 regex').fill('/user/\\d+');
    await paths.getByLabel('Rule 1 alias').fill('/user/:id');
    await paths.getByRole('button', { name: 'Save' }).click();
    await paths.getByRole('status').waitFor();
    await screenshot(page, 'settings');

    const after = await getApi(w, `/api/projects/${w.who.projectId}/`);
    expect(after.timezone).toBe('Europe/Paris');
    expect(after.test_account_filters).toEqual([...before.test_account_filters, { key: 'email', operator: 'not_icontains', type: 'person', value: '@example.org' }]);
    expect(after.test_account_filters_default_checked).toBe(true);
    expect(after.path_cleaning_filters).toEqual([{ alias: '/user/:id', regex: '/user/\\d+' }]);

    await page.reload();
    await expect.poll(() => page.getByTestId('settings-timezone').getByLabel('Time zone').inputValue()).toBe('Europe/Paris');
    expect(await tests.getByRole('combobox', { name: `Filter ${n} property`, exact: true }).inputValue()).toBe('email');
    expect(await tests.getByRole('combobox', { name: `Filter ${n} value`, exact: true }).inputValue()).toBe('@example.org');
    expect(await tests.getByLabel('Filter out test users in new insights by default').isChecked()).toBe(true);
    expect(await paths.getByLabel('Rule 1 alias').inputValue()).toBe('/user/:id');

    // A new token, shown and answered alike; the old one no longer captures.
    const token = page.getByTestId('settings-token');
    await token.getByRole('button', { name: 'Reset token' }).click();
    await token.getByRole('button', { name: 'Reset it' }).click();
    await expect.poll(() => page.getByTestId('project-token').textContent()).not.toBe(before.api_token);
    expect(await page.getByTestId('project-token').textContent()).toBe((await getApi(w, `/api/projects/${w.who.projectId}/`)).api_token);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('settings: the feature flags secure API key is generated, revealed, rotated (the old one kept as the backup) and its backup deleted, as the API answers', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/settings`);
    const section = page.getByTestId('settings-secret-key');
    const project = () => getApi(w, `/api/projects/${w.who.projectId}/`);
    const masked = (key: string) => `${key.slice(0, 4)}...${key.slice(-4)}`;
    const shown = page.getByTestId('secret-key');
    expect((await project()).secret_api_token).toBeNull();

    await section.getByRole('button', { name: 'Generate key' }).click();
    await shown.waitFor();
    const first = (await project()).secret_api_token as string;
    expect(first).toMatch(/^phs_/);
    expect(await shown.textContent()).toBe(masked(first));
    await section.getByRole('button', { name: 'Reveal' }).click();
    expect(await shown.textContent()).toBe(first);

    await section.getByRole('button', { name: 'Rotate key' }).click();
    await section.getByRole('button', { name: 'Rotate it' }).click();
    const backup = page.getByTestId('secret-key-backup');
    await backup.waitFor();
    const rotated = await project();
    expect(rotated.secret_api_token_backup).toBe(first);
    expect(await shown.textContent()).toBe(rotated.secret_api_token);
    expect(await backup.locator('code').textContent()).toBe(masked(first));
    await screenshot(page, 'settings-secret-key');

    await backup.getByRole('button', { name: 'Delete backup' }).click();
    await backup.waitFor({ state: 'detached' });
    expect(await project()).toMatchObject({ secret_api_token: rotated.secret_api_token, secret_api_token_backup: null });
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
