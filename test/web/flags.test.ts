// Feature flags in Chromium against a real Hoglet: flags made in the form are what the flags API
// reads back (same filters), an edit keeps what it did not touch, the form refuses what PostHog
// would refuse (variant sum, payload JSON, key characters) and shows the server's 400 and 409
// where they belong, the test box shows /flags/'s own answer, and the usage chart's numbers are a
// TrendsQuery's over `$feature_flag_called` events captured through /batch/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureNow, getApi, hasChromium, legendItems, openPage, pick, queryApi, screenshot, startWorld, type World } from './harness.js';

const TIMEOUT = 90_000;

/** PostHog's per-flag usage trends (its generated usage dashboard), which the flag's page draws. */
const usageQuery = (key: string, math: 'total' | 'dau' = 'total') => ({
  kind: 'TrendsQuery',
  series: [{ kind: 'EventsNode', event: '$feature_flag_called', name: '$feature_flag_called', math }],
  properties: [{ key: '$feature_flag', type: 'event', value: [key], operator: 'exact' }],
  breakdownFilter: { breakdown: '$feature_flag_response', breakdown_type: 'event' },
  dateRange: { date_from: '-30d', date_to: null },
  interval: 'day',
  ...(math === 'dau' ? { trendsFilter: { display: 'ActionsTable' } } : {}),
});

describe.skipIf(!hasChromium)('feature flags in Chromium', () => {
  let w: World;
  let flagsPath: string;
  let cohortId: number;

  const flagByKey = async (key: string) => {
    const page = await getApi(w, `${flagsPath}?search=${encodeURIComponent(key)}`);
    const found = (page.results as { key: string; id: number }[]).find((f) => f.key === key);
    if (!found) throw new Error(`no flag ${key}`);
    return getApi(w, `${flagsPath}${found.id}/`);
  };
  const apiRequest = async (method: 'POST' | 'PATCH', url: string, payload: object) => {
    const res = await w.t.request(w.who.key, { method, url, payload });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  /** /flags/ v2 as an SDK asks it: this flag's entry. */
  const flagsAnswer = async (key: string, distinctId: string, personProperties?: object) => {
    const res = await w.t.request(null, {
      method: 'POST',
      url: '/flags/?v=2',
      payload: { token: w.who.projectApiToken, distinct_id: distinctId, ...(personProperties ? { person_properties: personProperties } : {}) },
    });
    expect(res.statusCode).toBe(200);
    return res.json().flags[key] ?? null;
  };

  beforeAll(async () => {
    w = await startWorld();
    flagsPath = `/api/projects/${w.who.projectId}/feature_flags/`;
    const cohort = await apiRequest('POST', `/api/projects/${w.who.projectId}/cohorts/`, {
      name: 'Example people',
      filters: { properties: { type: 'AND', values: [{ type: 'person', key: 'email', operator: 'icontains', value: 'example.com' }] } },
    });
    cohortId = cohort.id;
    const called = (id: string, key: string, response: unknown) => ({ event: '$feature_flag_called', distinct_id: id, properties: { $feature_flag: key, $feature_flag_response: response } });
    await captureNow(w, [
      called('p1', 'new-checkout', true), called('p2', 'new-checkout', true), called('p1', 'new-checkout', true),
      called('p3', 'new-checkout', false), called('p4', 'new-checkout', false),
      called('p5', 'new-checkout', true), called('p5', 'other-flag', true),
      // A group type for the group flag: capture numbers "company" and stores acme's properties.
      { event: '$groupidentify', distinct_id: 'p1', properties: { $group_type: 'company', $group_key: 'acme', $group_set: { plan: 'enterprise' } } },
      { event: '$groupidentify', distinct_id: 'p2', properties: { $group_type: 'company', $group_key: 'globex', $group_set: { plan: 'free' } } },
    ]);
  }, 120_000);
  afterAll(async () => {
    await w?.close();
  });

  it('creates a boolean flag with a person and a cohort condition; the API reads back the same filters', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/insights`);
    await page.getByRole('link', { name: 'Feature flags' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/feature_flags`);
    await expect.poll(() => page.getByText('No feature flags yet.').count()).toBe(1);
    await page.getByRole('link', { name: 'New feature flag' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/feature_flags/new`);
    const save = page.getByRole('button', { name: 'Create flag' });

    // PostHog's key rule, before the server is asked.
    await page.getByLabel('Key', { exact: true }).fill('new checkout!');
    expect(await page.getByTestId('key-hint').textContent()).toBe('Only letters, numbers, hyphens (-) & underscores (_) are allowed.');
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('Key', { exact: true }).fill('new-checkout');
    await page.getByLabel('Description', { exact: true }).fill('The new checkout');
    await page.getByLabel('Persist flag across authentication steps').check();

    await page.getByRole('button', { name: '+ Add person property' }).click();
    await pick(page, 'Set 1 condition 1 property', 'ema', 'email');
    await page.getByLabel('Set 1 condition 1 operator').selectOption('icontains');
    const value = page.getByRole('combobox', { name: 'Set 1 condition 1 value', exact: true });
    await value.fill('@example.com');
    await value.press('Enter');
    await page.getByRole('button', { name: '+ Add cohort' }).click();
    await pick(page, 'Set 1 condition 2 cohort', 'Exam', 'Example people');
    await page.getByLabel('Set 1 rollout percentage').fill('50');

    // A payload that is not JSON is pointed out and blocks Save.
    await page.getByLabel('Payload', { exact: true }).fill('{"discount": 10');
    await expect.poll(() => page.getByTestId('payload-error').count()).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('Payload', { exact: true }).fill('{"discount": 10}');
    expect(await page.getByTestId('payload-error').count()).toBe(0);
    await screenshot(page, 'flag-new-boolean');
    await save.click();
    await page.waitForURL(new RegExp(`/project/${w.who.projectId}/feature_flags/\\d+$`));

    const flag = await flagByKey('new-checkout');
    expect(flag).toMatchObject({ key: 'new-checkout', name: 'The new checkout', active: true, ensure_experience_continuity: true });
    expect(flag.filters.groups).toEqual([expect.objectContaining({
      properties: [
        expect.objectContaining({ key: 'email', type: 'person', operator: 'icontains', value: '@example.com' }),
        expect.objectContaining({ key: 'id', type: 'cohort', operator: 'in', value: cohortId }),
      ],
      rollout_percentage: 50,
    })]);
    expect(flag.filters.payloads).toEqual({ true: '{"discount": 10}' });
    expect(flag.filters.multivariate ?? null).toBeNull();
    expect(flag.filters.aggregation_group_type_index ?? null).toBeNull();

    // The flag's page shows it read-only.
    await expect.poll(() => page.getByTestId('flag-rollout').textContent()).toBe('50% of users matching 2 conditions');
    // The cohort's name arrives with the project's cohorts, after the flag itself.
    await expect.poll(() => page.getByTestId('flag-conditions').textContent()).toContain('email contains "@example.com" and in cohort Example people');
    expect(await page.getByTestId('flag-payload-true').textContent()).toBe('{"discount": 10}');
    expect(await page.getByTestId('flag-continuity').textContent()).toBe('Yes');
    await screenshot(page, 'flag-page');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('a multivariate flag: Save waits for the variants to add up to 100; the API reads back variants, payloads and override', async () => {
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/feature_flags/new`);
    const save = page.getByRole('button', { name: 'Create flag' });
    await page.getByLabel('Key', { exact: true }).fill('checkout-test');
    await page.getByLabel('Multiple variants with rollout percentages (A/B/n test)').check();
    const sum = page.getByTestId('variant-sum');
    expect(await sum.getAttribute('data-value')).toBe('100');

    await page.getByRole('button', { name: '+ Add variant' }).click();
    await page.getByLabel('Variant 3 key').fill('test');
    await expect.poll(() => page.getByTestId('save-blocked').textContent()).toBe('Variant keys must be unique.');
    await page.getByLabel('Variant 3 key').fill('third');
    await page.getByLabel('Variant 1 rollout').fill('40');
    await expect.poll(() => sum.getAttribute('data-value')).toBe('90');
    expect(await sum.textContent()).toContain('must add up to 100%');
    expect(await save.isDisabled()).toBe(true);
    await screenshot(page, 'flag-new-variants-blocked');
    await page.getByRole('button', { name: 'Distribute equally' }).click();
    await expect.poll(() => sum.getAttribute('data-value')).toBe('100');
    expect(await page.getByLabel('Variant 1 rollout').inputValue()).toBe('34');
    expect(await page.getByLabel('Variant 3 rollout').inputValue()).toBe('33');
    await page.getByLabel('Variant 2 description').fill('The test arm');

    await page.getByLabel('Variant 2 payload').fill('[1, 2');
    await expect.poll(() => page.getByTestId('payload-error').count()).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    await page.getByLabel('Variant 2 payload').fill('{"color": "blue"}');
    await expect.poll(() => save.isDisabled()).toBe(false);

    // A second set sending p1@example.com to "third" whatever the hash says.
    await page.getByRole('button', { name: '+ Add condition set' }).click();
    await page.getByRole('group', { name: 'Condition set 2' }).getByRole('button', { name: '+ Add person property' }).click();
    await pick(page, 'Set 2 condition 1 property', 'ema', 'email');
    await pick(page, 'Set 2 condition 1 value', 'p1@', 'p1@example.com');
    await page.getByLabel('Set 2 variant override').selectOption('third');
    await page.getByLabel('Set 1 rollout percentage').fill('30');
    await screenshot(page, 'flag-new-variants');
    await save.click();
    await page.waitForURL(new RegExp(`/project/${w.who.projectId}/feature_flags/\\d+$`));

    const flag = await flagByKey('checkout-test');
    expect(flag.filters.multivariate.variants.map((v: { key: string; rollout_percentage: number; name?: string }) => [v.key, v.rollout_percentage, v.name ?? ''])).toEqual([
      ['control', 34, ''], ['test', 33, 'The test arm'], ['third', 33, ''],
    ]);
    expect(flag.filters.payloads).toEqual({ test: '{"color": "blue"}' });
    expect(flag.filters.groups).toEqual([
      expect.objectContaining({ properties: [], rollout_percentage: 30 }),
      expect.objectContaining({ properties: [expect.objectContaining({ key: 'email', type: 'person', operator: 'exact', value: ['p1@example.com'] })], rollout_percentage: 100, variant: 'third' }),
    ]);
    await expect.poll(() => page.getByTestId('flag-rollout').textContent()).toBe('2 condition sets · 3 variants');

    // The override decides for p1, as /flags/ says and the test box shows.
    expect(await flagsAnswer('checkout-test', 'p1')).toMatchObject({ enabled: true, variant: 'third' });
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('editing keeps what was not touched; the list shows an inactive flag as such; search and the status filter narrow the list', async () => {
    const before = await flagByKey('new-checkout');
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/feature_flags/${before.id}`);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/feature_flags/${before.id}/edit`);
    await expect.poll(() => page.getByLabel('Key', { exact: true }).inputValue()).toBe('new-checkout');
    await page.getByLabel('Description', { exact: true }).fill('The new checkout, paused');
    await page.getByLabel('Enabled (active)').uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/feature_flags/${before.id}`);
    await expect.poll(() => page.getByTestId('inactive-note').count()).toBe(1);

    const after = await flagByKey('new-checkout');
    expect(after.name).toBe('The new checkout, paused');
    expect(after.active).toBe(false);
    expect(after.filters).toEqual(before.filters);
    expect(after.ensure_experience_continuity).toBe(true);
    expect(after.key).toBe(before.key);

    await page.getByRole('link', { name: 'Feature flags' }).first().click();
    const table = page.getByTestId('flags-table');
    await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
    const row = table.locator('tr[data-key="new-checkout"]');
    expect(await row.getAttribute('class')).toContain('inactive');
    expect(await row.getByTestId('flag-status').textContent()).toBe('Inactive');
    expect(await table.locator('tr[data-key="checkout-test"]').getByTestId('flag-status').textContent()).toBe('Active');
    await screenshot(page, 'flags-list');

    await page.getByLabel('Status').selectOption('true');
    await expect.poll(() => table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')))).toEqual(['checkout-test']);
    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Search flags').fill('paused');
    await expect.poll(() => table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')))).toEqual(['new-checkout']);
    await page.getByLabel('Search flags').fill('checkout-t');
    await expect.poll(() => table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')))).toEqual(['checkout-test']);

    // Back on for the tests that follow.
    await apiRequest('PATCH', `${flagsPath}${before.id}/`, { active: true });

    // What the form does not edit survives an edit: tags, the runtime, a flag dependency, a set's
    // description, a variant's extra fields.
    const rich = await apiRequest('POST', flagsPath, {
      key: 'kept-fields',
      tags: ['beta'],
      evaluation_runtime: 'server',
      filters: {
        groups: [{
          description: 'Pro plans',
          properties: [{ key: 'plan', type: 'person', operator: 'exact', value: ['pro'] }, { key: String(before.id), type: 'flag', operator: 'flag_evaluates_to', value: true }],
          rollout_percentage: 40,
        }],
        payloads: { true: '{"tier": 2}' },
      },
    });
    await page.goto(`${w.base}/project/${w.who.projectId}/feature_flags/${rich.id}/edit`);
    await expect.poll(() => page.getByLabel('Key', { exact: true }).inputValue()).toBe('kept-fields');
    expect(await page.getByTestId('flag-condition').nth(1).textContent()).toBe(`flag ${before.id} evaluates to true✕`);
    await page.getByLabel('Description', { exact: true }).fill('Only the description changes');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/feature_flags/${rich.id}`);
    const richAfter = await getApi(w, `${flagsPath}${rich.id}/`);
    expect(richAfter.name).toBe('Only the description changes');
    expect(richAfter.version).toBe(rich.version + 1);
    for (const field of ['filters', 'tags', 'evaluation_runtime', 'active', 'ensure_experience_continuity', 'key']) expect(richAfter[field]).toEqual(rich[field]);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it("the server's 400 shows next to the field it names, a stale version's 409 with PostHog's message", async () => {
    const { page, context } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/feature_flags/new`);
    await page.getByLabel('Key', { exact: true }).fill('checkout-test');
    await page.getByRole('button', { name: 'Create flag' }).click();
    const keyError = page.locator('[data-testid="field-error"][data-attr="key"]');
    await expect.poll(() => keyError.textContent()).toBe('There is already a feature flag with this key.');

    const flag = await flagByKey('checkout-test');
    await page.goto(`${w.base}/project/${w.who.projectId}/feature_flags/${flag.id}/edit`);
    await expect.poll(() => page.getByLabel('Key', { exact: true }).inputValue()).toBe('checkout-test');
    // Someone else saves the same field meanwhile.
    await apiRequest('PATCH', `${flagsPath}${flag.id}/`, { name: 'Changed elsewhere', version: flag.version });
    await page.getByLabel('Description', { exact: true }).fill('Changed here');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByTestId('save-error').textContent()).toMatch(/^The feature flag was updated by .+ since you started editing it\. Please refresh and try again\.$/);
    expect((await flagByKey('checkout-test')).name).toBe('Changed elsewhere');
    await screenshot(page, 'flag-conflict');
    await context.close();
  }, TIMEOUT);

  it('the test box shows what /flags/ answers an SDK for the same distinct id and properties', async () => {
    const flag = await flagByKey('new-checkout');
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/feature_flags/${flag.id}`);
    const box = page.getByRole('region', { name: 'Test this flag' });
    const shown = async () => ({
      enabled: await box.getByTestId('test-result').getAttribute('data-enabled'),
      variant: await box.getByTestId('test-variant').textContent(),
      reason: await box.getByTestId('test-reason').textContent(),
      code: await box.getByTestId('test-reason').getAttribute('data-code'),
      payload: await box.getByTestId('test-payload').textContent(),
    });
    const expected = (answer: { enabled: boolean; variant: string | null; reason: { code: string; description: string }; metadata: { payload: string | null } }) => ({
      enabled: String(answer.enabled),
      variant: answer.variant ?? '—',
      reason: answer.reason.description,
      code: answer.reason.code,
      payload: answer.metadata.payload ?? '—',
    });
    const seen = new Set<string>();
    for (const [id, props] of [['p1', null], ['p2', null], ['p3', null], ['p5', null], ['p1', { email: 'p1@elsewhere.org' }], ['nobody', { email: 'x@example.com' }]] as const) {
      await box.getByLabel('Distinct ID').fill(id);
      await box.getByLabel('Person properties (JSON)').fill(props ? JSON.stringify(props) : '');
      await box.getByRole('button', { name: 'Test' }).click();
      const answer = await flagsAnswer('new-checkout', id, props ?? undefined);
      expect(answer).not.toBeNull();
      await expect.poll(shown).toEqual(expected(answer));
      seen.add(answer.reason.code);
    }
    // Both sides of the flag were seen: matched and not.
    expect(seen.has('condition_match') || seen.has('out_of_rollout_bound')).toBe(true);
    expect(seen.has('no_condition_match')).toBe(true);
    await screenshot(page, 'flag-test-box');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it("the usage chart's numbers are a TrendsQuery's over the captured $feature_flag_called events", async () => {
    const flag = await flagByKey('new-checkout');
    const api = await queryApi(w, usageQuery('new-checkout'));
    const byResponse = Object.fromEntries((api.results as { breakdown_value: unknown; count: number }[]).map((r) => [String(r.breakdown_value), r.count]));
    expect(byResponse).toEqual({ true: 4, false: 2 });

    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/feature_flags/${flag.id}`);
    const usage = page.getByTestId('flag-usage');
    const items = await legendItems(usage);
    expect(Object.fromEntries(items.map((i) => [i.label.split(' · ')[1], Number(i.value)]))).toEqual(byResponse);
    // The dashboard's second trend: unique users per response, as a table of totals.
    const dau = await queryApi(w, usageQuery('new-checkout', 'dau'));
    const usersByResponse = Object.fromEntries((dau.results as { breakdown_value: unknown; aggregated_value: number }[]).map((r) => [String(r.breakdown_value), r.aggregated_value]));
    const users = await legendItems(page.getByTestId('flag-unique-users'));
    expect(Object.fromEntries(users.map((i) => [i.label.split(' · ')[1], Number(i.value)]))).toEqual(usersByResponse);
    await screenshot(page, 'flag-usage');
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it("a group flag: Match by offers the project's group types, its conditions are that type's properties, the test box names the group", async () => {
    const mapping = (await getApi(w, `${flagsPath}local_evaluation/`)).group_type_mapping as Record<string, string>;
    const index = Number(Object.entries(mapping).find(([, name]) => name === 'company')![0]);
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/feature_flags/new`);
    await page.getByLabel('Key', { exact: true }).fill('company-beta');
    await expect.poll(() => page.getByLabel('Match by').locator('option').allTextContents()).toEqual(['Users', 'company']);
    await page.getByLabel('Match by').selectOption(String(index));
    expect(await page.getByRole('button', { name: '+ Add cohort' }).count()).toBe(0);
    await page.getByRole('button', { name: '+ Add group property' }).click();
    await pick(page, 'Set 1 condition 1 property', 'pla', 'plan');
    await pick(page, 'Set 1 condition 1 value', 'enter', 'enterprise');
    await screenshot(page, 'flag-new-group');
    await page.getByRole('button', { name: 'Create flag' }).click();
    await page.waitForURL(new RegExp(`/project/${w.who.projectId}/feature_flags/\\d+$`));

    const flag = await flagByKey('company-beta');
    expect(flag.filters.aggregation_group_type_index).toBe(index);
    expect(flag.filters.groups).toEqual([expect.objectContaining({
      properties: [expect.objectContaining({ key: 'plan', type: 'group', group_type_index: index, operator: 'exact', value: ['enterprise'] })],
    })]);
    await expect.poll(() => page.getByTestId('flag-rollout').textContent()).toBe('100% of company(s) matching 1 condition');

    const box = page.getByRole('region', { name: 'Test this flag' });
    for (const group of ['acme', 'globex']) {
      await box.getByLabel('Distinct ID').fill('p1');
      await box.getByLabel('Group key (company)').fill(group);
      await box.getByRole('button', { name: 'Test' }).click();
      const res = await w.t.request(null, { method: 'POST', url: '/flags/?v=2', payload: { token: w.who.projectApiToken, distinct_id: 'p1', groups: { company: group } } });
      const answer = res.json().flags['company-beta'];
      expect(answer.enabled).toBe(group === 'acme');
      await expect.poll(() => box.getByTestId('test-result').getAttribute('data-enabled')).toBe(String(answer.enabled));
      await expect.poll(() => box.getByTestId('test-reason').textContent()).toBe(answer.reason.description);
    }
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);

  it('deletes after a confirmation: the flag leaves the list and reads back deleted', async () => {
    const flag = await flagByKey('checkout-test');
    const { page, context, problems } = await openPage(w);
    await page.goto(`${w.base}/project/${w.who.projectId}/feature_flags/${flag.id}`);
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = page.getByRole('group', { name: 'Confirm delete' });
    await screenshot(page, 'flag-delete-confirm');
    expect((await getApi(w, `${flagsPath}${flag.id}/`)).deleted).toBe(false);
    await confirm.getByRole('button', { name: 'Yes, delete' }).click();
    await page.waitForURL(`${w.base}/project/${w.who.projectId}/feature_flags`);
    const table = page.getByTestId('flags-table');
    await expect.poll(() => table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')))).toEqual(['company-beta', 'kept-fields', 'new-checkout']);
    expect((await getApi(w, `${flagsPath}${flag.id}/`)).deleted).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  }, TIMEOUT);
});
