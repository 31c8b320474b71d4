// The cohort criteria editor in Chromium against a real Hoglet: a cohort of two groups (a person
// property with a value picked from the API's suggestions and a negated behaviour; a behaviour) is
// saved and shows the count and people the API gives; edited to "at least 2 times" it recounts;
// another cohort names it; an incomplete criterion is refused beside its field with nothing sent;
// a static cohort from a CSV shows as static; delete is PostHog's soft delete after a confirmation.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureNow, getApi, hasChromium, openPage, pick, screenshot, startWorld, tableRows, type World } from './harness.js';

const TIMEOUT = 120_000;

describe.skipIf(!hasChromium)('cohort editor in Chromium', () => {
  let w: World;
  let base = '';
  const apiPath = (path: string) => `/api/projects/${w.who.projectId}/${path}`;
  /** The cohort as the API has it once counted, and its people's ids. */
  const counted = async (id: string) => {
    let cohort: any;
    await expect.poll(async () => { cohort = await getApi(w, apiPath(`cohorts/${id}/`)); return cohort.is_calculating; }, { timeout: 20_000 }).toBe(false);
    const people = await getApi(w, apiPath(`cohorts/${id}/persons/?limit=100`));
    return { cohort, ids: (people.results as { id: string }[]).map((p) => p.id).sort() };
  };

  beforeAll(async () => {
    w = await startWorld();
    base = `${w.base}/project/${w.who.projectId}`;
    const view = (id: string, plan: string) => ({ event: '$pageview', distinct_id: id, properties: { $current_url: 'https://example.com/', $set: { plan } } });
    const purchase = (id: string) => ({ event: 'purchase', distinct_id: id, properties: {} });
    await captureNow(w, [
      view('u1', 'pro'), purchase('u1'),
      view('u2', 'pro'),
      view('u3', 'free'), purchase('u3'), purchase('u3'),
      view('u4', 'free'),
    ]);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('builds two groups, saves, counts as the API does, edits, names it from another cohort, deletes that one', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/cohorts`);
    await page.getByRole('link', { name: 'New cohort' }).click();
    await page.waitForURL(`${base}/cohorts/new`);
    const form = page.getByRole('form', { name: 'New cohort' });
    await form.getByLabel('Name').fill('Pro or buyers');

    // Group 1: plan = pro (the value picked from what the API suggests) and did NOT purchase.
    const g1 = form.getByTestId('cohort-group-0');
    await pick(g1, 'Group 1 criterion 1 property', 'plan', 'plan');
    const suggested = g1.getByRole('combobox', { name: 'Group 1 criterion 1 value', exact: true });
    await suggested.click();
    const values = g1.getByRole('listbox', { name: 'Group 1 criterion 1 value', exact: true }).getByRole('option');
    await values.first().waitFor();
    const api = await getApi(w, apiPath('persons/values/?key=plan'));
    expect((await values.evaluateAll((items) => items.map((i) => i.getAttribute('data-value')))).sort()).toEqual(api.map((v: { name: string }) => v.name).sort());
    await values.filter({ hasText: 'pro' }).first().click();
    await g1.getByRole('button', { name: '+ Add criterion to group 1' }).click();
    await g1.getByLabel('Group 1 criterion 2 kind').selectOption('not_performed_event');
    await pick(g1, 'Group 1 criterion 2 event', 'purchase', 'purchase');
    // Group 2: purchased in the last 30 days.
    await form.getByRole('button', { name: '+ Add criteria group' }).click();
    const g2 = form.getByTestId('cohort-group-1');
    await g2.getByLabel('Group 2 criterion 1 kind').selectOption('performed_event');
    await pick(g2, 'Group 2 criterion 1 event', 'purchase', 'purchase');
    await screenshot(page, 'cohort-editor');
    await form.getByRole('button', { name: 'Create cohort' }).click();
    await page.waitForURL(/\/cohorts\/\d+$/);
    const id = page.url().split('/').pop()!;

    const stored = await getApi(w, apiPath(`cohorts/${id}/`));
    expect(stored.filters).toEqual({
      properties: {
        type: 'OR',
        values: [
          { type: 'AND', values: [
            { type: 'person', key: 'plan', operator: 'exact', value: ['pro'], negation: false },
            { type: 'behavioral', value: 'performed_event', key: 'purchase', event_type: 'events', time_value: 30, time_interval: 'day', negation: true },
          ] },
          { type: 'AND', values: [{ type: 'behavioral', value: 'performed_event', key: 'purchase', event_type: 'events', time_value: 30, time_interval: 'day', negation: false }] },
        ],
      },
    });
    const count = page.getByTestId('cohort-count');
    await expect.poll(() => count.getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    let truth = await counted(id);
    expect(truth.cohort.count).toBe(3); // u2 (pro, no purchase), u1 and u3 (purchased)
    expect(await count.getAttribute('data-value')).toBe(String(truth.cohort.count));
    await expect.poll(async () => (await tableRows(page.getByTestId('cohort-persons'))).map((r) => r.cells[1]).sort()).toEqual(truth.ids);

    // Edit: group 2 becomes "purchased at least 2 times"; the count and the people follow.
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: 'Edit cohort' });
    await edit.getByLabel('Group 2 criterion 1 kind').selectOption('performed_event_multiple');
    await edit.getByLabel('Group 2 criterion 1 count operator').selectOption('gte');
    await edit.getByLabel('Group 2 criterion 1 times').fill('2');
    await edit.getByRole('button', { name: 'Save cohort' }).click();
    await expect.poll(() => count.getAttribute('data-value'), { timeout: 20_000 }).toBe('2');
    truth = await counted(id);
    expect(truth.cohort.count).toBe(2); // u2, u3
    expect(truth.cohort.filters.properties.values[1].values[0]).toMatchObject({ value: 'performed_event_multiple', operator: 'gte', operator_value: 2 });
    // What was not touched is saved back as it was (the negated behaviour included).
    expect(truth.cohort.filters.properties.values[0]).toEqual(stored.filters.properties.values[0]);
    await expect.poll(async () => (await tableRows(page.getByTestId('cohort-persons'))).map((r) => r.cells[1]).sort()).toEqual(truth.ids);
    await screenshot(page, 'cohort-editor-saved');

    // Another cohort names it: in "Pro or buyers" and plan is not pro.
    await page.goto(`${base}/cohorts/new`);
    const other = page.getByRole('form', { name: 'New cohort' });
    await other.getByLabel('Name').fill('Free buyers');
    await other.getByLabel('Group 1 criterion 1 kind').selectOption('in_cohort');
    await pick(other, 'Group 1 criterion 1 cohort', 'Pro or', 'Pro or buyers');
    await other.getByRole('button', { name: '+ Add criterion to group 1' }).click();
    await pick(other, 'Group 1 criterion 2 property', 'plan', 'plan');
    await other.getByLabel('Group 1 criterion 2 operator').selectOption('is_not');
    await pick(other, 'Group 1 criterion 2 value', 'pro', 'pro');
    await other.getByRole('button', { name: 'Create cohort' }).click();
    await page.waitForURL(/\/cohorts\/\d+$/);
    const otherId = page.url().split('/').pop()!;
    await expect.poll(() => count.getAttribute('data-state'), { timeout: 20_000 }).toBe('ready');
    const second = await counted(otherId);
    expect(second.cohort.filters.properties.values[0].values[0]).toEqual({ type: 'cohort', key: 'id', value: Number(id), negation: false });
    expect(second.cohort.count).toBe(1); // u3
    expect(await count.getAttribute('data-value')).toBe('1');

    // Opened again, the criterion names the cohort, not its id.
    await page.getByRole('button', { name: 'Edit' }).click();
    await expect.poll(() => page.getByRole('combobox', { name: 'Group 1 criterion 1 cohort', exact: true }).inputValue()).toBe('Pro or buyers');
    await page.getByRole('button', { name: 'Cancel' }).click();

    // Delete after a confirmation: PostHog's PATCH {deleted: true}; the list no longer has it.
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Delete cohort' });
    await screenshot(page, 'cohort-editor-delete');
    await dialog.getByRole('button', { name: 'Yes, delete' }).click();
    await page.waitForURL(`${base}/cohorts`);
    await page.getByTestId('cohorts-table').locator(`tr[data-id="${id}"]`).waitFor();
    expect(await page.getByTestId('cohorts-table').locator(`tr[data-id="${otherId}"]`).count()).toBe(0);
    const list = await getApi(w, apiPath('cohorts/'));
    expect(list.results.map((c: { id: number }) => c.id)).not.toContain(Number(otherId));
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('refuses an incomplete criterion beside its field and sends nothing; shows the API\'s 400 beside the field it names', async () => {
    const { page, context, problems } = await openPage(w);
    const writes: string[] = [];
    page.on('request', (r) => { if (r.method() !== 'GET' && r.url().includes('/cohorts/')) writes.push(r.url()); });
    await page.goto(`${base}/cohorts/new`);
    const form = page.getByRole('form', { name: 'New cohort' });
    await form.getByLabel('Name').fill('Typo');
    // A property with no value, and a group of one negated criterion only.
    await pick(form, 'Group 1 criterion 1 property', 'plan', 'plan');
    await form.getByRole('button', { name: '+ Add criteria group' }).click();
    await form.getByLabel('Group 2 criterion 1 kind').selectOption('not_performed_event');
    await pick(form, 'Group 2 criterion 1 event', 'purchase', 'purchase');
    await form.getByRole('button', { name: 'Create cohort' }).click();
    await form.getByTestId('cohort-not-saved').waitFor();
    expect(await form.getByTestId('cohort-group-0').getByRole('alert').textContent()).toBe('Give a value.');
    expect(await form.getByTestId('cohort-group-1').getByRole('alert').textContent()).toContain('Negation criteria can only be used when matching all criteria (AND)');
    expect(writes).toEqual([]);
    await screenshot(page, 'cohort-editor-invalid');

    // What only the server knows (a window past its limit) comes back beside that field.
    await form.getByRole('button', { name: 'Remove group 2', exact: true }).click();
    await pick(form, 'Group 1 criterion 1 value', 'pro', 'pro');
    await form.getByLabel('Group 1 criterion 1 kind').selectOption('performed_event');
    await pick(form, 'Group 1 criterion 1 event', 'purchase', 'purchase');
    await form.getByLabel('Group 1 criterion 1 period count').fill('20000');
    await form.getByRole('button', { name: 'Create cohort' }).click();
    const alert = form.getByTestId('criterion').getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('Ensure this value is less than or equal to 10000.');
    expect(await form.getByLabel('Group 1 criterion 1 period count').getAttribute('aria-invalid')).toBe('true');
    expect(writes).toHaveLength(1);
    const list = await getApi(w, apiPath('cohorts/'));
    expect(list.results.map((c: { name: string }) => c.name)).not.toContain('Typo');
    expect(problems.filter((p) => !p.includes('400'))).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('a static cohort from a CSV upload shows as static with the API\'s count', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${base}/cohorts/new`);
    const form = page.getByRole('form', { name: 'New cohort' });
    await form.getByLabel('Name').fill('Invited');
    await form.getByLabel('Static: a fixed list uploaded as CSV').check();
    await form.getByLabel('CSV of people').setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from('distinct_id\nu1\nu4\n') });
    await form.getByRole('button', { name: 'Create cohort' }).click();
    await page.waitForURL(/\/cohorts\/\d+$/);
    const id = page.url().split('/').pop()!;
    const truth = await counted(id);
    expect(truth.cohort).toMatchObject({ is_static: true, count: 2 });
    await expect.poll(() => page.getByTestId('cohort-count').getAttribute('data-value')).toBe('2');
    expect(await page.getByTestId('cohort-type').textContent()).toBe('Static');
    await expect.poll(async () => (await tableRows(page.getByTestId('cohort-persons'))).map((r) => r.cells[1]).sort()).toEqual(truth.ids);
    await page.goto(`${base}/cohorts`);
    const row = page.getByTestId('cohorts-table').locator(`tr[data-id="${id}"]`);
    await expect.poll(() => row.locator('td').nth(1).textContent()).toBe('Static');
    await screenshot(page, 'cohort-editor-list');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
