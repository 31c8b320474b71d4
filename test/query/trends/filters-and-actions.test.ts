// Trends filters: every property operator with PostHog's null semantics, nested groups, person
// properties, test accounts, and actions as series.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { eventsNode, ev, expectValidationError, freshProject, journeys, pageviews, patchProject, rawQuery, trends, trendsQuery } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

const D = '2024-01-01T10:00:00Z';

describe('property operators', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [
        ev('x', D, { plan: 'Pro', n: 5, when: '2024-01-10' }),
        ev('x', D, { plan: 'free', n: 15, when: '2024-01-20T12:00:00Z' }),
        ev('x', D, { plan: '', n: 'abc' }),
        ev('x', D, {}),
        ev('x', D, { plan: null, n: 10 }),
        ev('x', D, { plan: 'enterprise', n: '20', when: 'not a date' }),
      ],
    });
  });
  const count = async (properties: unknown) => (await trends(t, who, trendsQuery([eventsNode('x')], '2024-01-01', '2024-01-01', { properties })))[0].count;
  const filter = (key: string, operator: string, value?: unknown) => [{ key, operator, type: 'event', ...(value === undefined ? {} : { value }) }];

  it.each([
    ['plan', 'exact', 'Pro', 1],
    ['plan', 'exact', ['Pro', 'free'], 2],
    ['plan', 'exact', 'pro', 0], // case-sensitive
    ['plan', 'is_not', 'Pro', 5], // missing, null and "" pass a negative filter
    ['plan', 'is_not', ['Pro', 'free'], 4],
    ['plan', 'icontains', 'PR', 2], // Pro, enterprise
    ['plan', 'not_icontains', 'pr', 4],
    ['plan', 'regex', '^(Pro|free)$', 2],
    ['plan', 'not_regex', '^(Pro|free)$', 4],
    ['n', 'gt', 10, 2], // 15 and the text "20"; "abc" is not a number
    ['n', 'gte', 10, 3],
    ['n', 'lt', 10, 1],
    ['n', 'lte', 10, 2],
    ['n', 'between', [5, 10], 2],
    ['plan', 'is_set', undefined, 3], // "" and null are not set
    ['plan', 'is_not_set', undefined, 3],
    ['when', 'is_date_before', '2024-01-15', 1],
    ['when', 'is_date_after', '2024-01-15', 1],
    ['when', 'is_date_exact', '2024-01-10', 1],
  ])('%s %s %j matches %i events', async (key, operator, value, expected) => {
    expect(await count(filter(key as string, operator as string, value))).toBe(expected);
  });

  it('an empty list value is no filter at all', async () => {
    expect(await count(filter('plan', 'exact', []))).toBe(6);
  });

  it('AND/OR groups nest', async () => {
    const group = {
      type: 'OR',
      values: [
        { type: 'AND', values: [{ key: 'plan', value: 'Pro', operator: 'exact' }, { key: 'n', value: 5, operator: 'exact' }] },
        { type: 'AND', values: [{ key: 'plan', value: 'free', operator: 'exact' }, { key: 'n', value: 99, operator: 'gt' }] },
        { type: 'OR', values: [{ key: 'plan', value: 'enterprise', operator: 'exact' }] },
      ],
    };
    expect(await count(group)).toBe(2);
    // query properties and series properties are ANDed
    const [item] = await trends(t, who, trendsQuery([eventsNode('x', { properties: [{ key: 'n', operator: 'gt', value: 6 }] })], '2024-01-01', '2024-01-01', { properties: group }));
    expect(item.count).toBe(1);
  });

  it('a number filter value matches the property\'s text', async () => {
    expect(await count(filter('n', 'exact', 10))).toBe(1);
  });

  it('an unknown operator is a 400 naming it', async () => {
    expectValidationError(await rawQuery(t, who, trendsQuery([eventsNode('x')], '2024-01-01', '2024-01-01', { properties: [{ key: 'plan', operator: 'sounds_like', value: 'x' }] })), 'query.properties[0].operator', /sounds_like/, 'invalid_choice');
    expectValidationError(await rawQuery(t, who, trendsQuery([eventsNode('x', { properties: { type: 'AND', values: [{ key: 'n', operator: 'gt', value: 'many' }] } })], '2024-01-01', '2024-01-01')), 'query.series[0].properties.values[0].value');
    expectValidationError(await rawQuery(t, who, trendsQuery([eventsNode('x')], '2024-01-01', '2024-01-01', { properties: [{ key: 'plan', operator: 'regex', value: '(unclosed' }] })), 'query.properties[0].value');
  });
});

describe('person properties and test accounts', () => {
  let who: Credentials;
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [ev('$pageview', D, { $set: { email: 'alice@customer.com' } }), ev('$pageview', D)],
      tester: [ev('$pageview', D, { $set: { email: 'qa@internal.com' } })],
      anon: [ev('$pageview', D, { $host: 'localhost:8000' }), ev('$pageview', D)],
    });
    await patchProject(t, who, {
      test_account_filters: [
        { key: 'email', value: '@internal.com', operator: 'not_icontains', type: 'person' },
        { key: '$host', value: '^(localhost|127\\.0\\.0\\.1)($|:)', operator: 'not_regex', type: 'event' },
      ],
    });
  });

  it('person property filters use the event\'s person, on every one of their events', async () => {
    const [item] = await trends(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-01-01', { properties: [{ key: 'email', value: 'customer.com', operator: 'icontains', type: 'person' }] }));
    expect(item.count).toBe(2);
    const [unset] = await trends(t, who, trendsQuery([pageviews('dau')], '2024-01-01', '2024-01-01', { properties: [{ key: 'email', operator: 'is_not_set', type: 'person' }] }));
    expect(unset.count).toBe(1); // anon
  });

  it('filterTestAccounts applies the project\'s test_account_filters; people without an email pass', async () => {
    const [all] = await trends(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-01-01'));
    expect(all.count).toBe(5);
    const [real] = await trends(t, who, trendsQuery([pageviews()], '2024-01-01', '2024-01-01', { filterTestAccounts: true }));
    expect(real.count).toBe(3); // alice ×2, anon's non-localhost event
    expect(real.filter.filter_test_accounts).toBe(true);
  });
});

describe('actions', () => {
  let who: Credentials;
  const createAction = async (name: string, steps: unknown[]) => {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/actions/`, payload: { name, steps } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().id as number;
  };
  beforeAll(async () => {
    who = await freshProject(t);
    await journeys(t, who, {
      alice: [
        ev('$pageview', D, { $current_url: 'https://shop.com/pricing' }),
        ev('$pageview', D, { $current_url: 'https://shop.com/pricing?plan=pro' }),
        ev('$pageview', '2024-01-02T10:00:00Z', { $current_url: 'https://shop.com/about' }),
        ev('signup', '2024-01-02T11:00:00Z', { $current_url: 'https://shop.com/signup' }),
      ],
      bob: [ev('$pageview', D, { $current_url: 'https://shop.com/PRICING' }), ev('$pageview', D)],
    });
  });

  it('an action series counts events matching any step; its label is the action name', async () => {
    const id = await createAction('Viewed pricing', [{ event: '$pageview', url: '/pricing', url_matching: 'contains' }]);
    const [item] = await trends(t, who, trendsQuery([{ kind: 'ActionsNode', id }], '2024-01-01', '2024-01-02'));
    expect(item.data).toEqual([2, 0]); // contains is case-sensitive, like PostHog's LIKE
    expect(item.label).toBe('Viewed pricing');
    expect(item.action).toMatchObject({ id: 'Viewed pricing', type: 'events', name: 'Viewed pricing' });
    expect(item.filter.actions).toEqual([expect.objectContaining({ id, type: 'actions', order: 0 })]);
    const [dau] = await trends(t, who, trendsQuery([{ kind: 'ActionsNode', id, math: 'dau' }], '2024-01-01', '2024-01-02'));
    expect(dau.data).toEqual([1, 0]);
  });

  it('url exact and regex, and several steps', async () => {
    const exact = await createAction('Exactly pricing', [{ event: '$pageview', url: 'https://shop.com/pricing', url_matching: 'exact' }]);
    const regex = await createAction('Pricing or about', [{ event: '$pageview', url: '/(pricing|about)$', url_matching: 'regex' }]);
    const steps = await createAction('Engaged', [{ event: 'signup' }, { event: '$pageview', url: 'about' }]);
    const results = await trends(t, who, trendsQuery([exact, regex, steps].map((id) => ({ kind: 'ActionsNode', id })), '2024-01-01', '2024-01-02'));
    expect(results.map((r: any) => [r.label, r.data])).toEqual([
      ['Exactly pricing', [1, 0]],
      ['Pricing or about', [1, 1]],
      ['Engaged', [0, 2]],
    ]);
  });

  it('actions and events mix; the series filter and the action both apply', async () => {
    const id = await createAction('Any pageview', [{ event: '$pageview' }]);
    const results = await trends(t, who, trendsQuery([
      { kind: 'ActionsNode', id, properties: [{ key: '$current_url', operator: 'icontains', value: 'pricing' }] },
      pageviews(),
    ], '2024-01-01', '2024-01-02'));
    expect(results.map((r: any) => [r.label, r.data])).toEqual([['Any pageview', [3, 0]], ['$pageview', [4, 1]]]);
  });

  it('a step\'s HogQL property filter is read (it is parsed with the query\'s own expressions)', async () => {
    const id = await createAction('Pricing by HogQL', [{ event: '$pageview', properties: [{ type: 'hogql', key: "properties.$current_url like '%/pricing%'" }] }]);
    const [item] = await trends(t, who, trendsQuery([{ kind: 'ActionsNode', id }], '2024-01-01', '2024-01-02'));
    expect(item.data).toEqual([2, 0]);
  });

  it('a deleted or unknown action matches nothing', async () => {
    const id = await createAction('Short-lived', [{ event: '$pageview' }]);
    const patched = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/actions/${id}/`, payload: { deleted: true } });
    expect(patched.statusCode, patched.body).toBe(200);
    const [deleted] = await trends(t, who, trendsQuery([{ kind: 'ActionsNode', id }], '2024-01-01', '2024-01-02'));
    expect(deleted.data).toEqual([0, 0]);
    const [unknown] = await trends(t, who, trendsQuery([{ kind: 'ActionsNode', id: 987654 }], '2024-01-01', '2024-01-02'));
    expect(unknown.data).toEqual([0, 0]);
  });

  it('another project\'s action matches nothing here', async () => {
    const other = await freshProject(t);
    const res = await t.request(other.key, { method: 'POST', url: `/api/projects/${other.projectId}/actions/`, payload: { name: 'Theirs', steps: [{ event: '$pageview' }] } });
    const [item] = await trends(t, who, trendsQuery([{ kind: 'ActionsNode', id: res.json().id }], '2024-01-01', '2024-01-02'));
    expect(item.data).toEqual([0, 0]);
  });
});
