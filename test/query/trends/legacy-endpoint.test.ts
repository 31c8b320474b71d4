// The legacy /insights/trend/ endpoint: PostHog's old filter dict (POST body or GET query string),
// the same numbers as /query/, and errors named by the legacy fields.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, expectValidationError, freshProject, journeys, legacyTrend, legacyTrendGet } from './helpers.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

let who: Credentials;
let actionId: number;
beforeAll(async () => {
  who = await freshProject(t);
  await journeys(t, who, {
    alice: [
      ev('$pageview', '2024-01-01T10:00:00Z', { $browser: 'Chrome', $current_url: 'https://x.com/pricing' }),
      ev('$pageview', '2024-01-01T11:00:00Z', { $browser: 'Chrome' }),
      ev('signup', '2024-01-02T10:00:00Z', { $browser: 'Chrome' }),
    ],
    bob: [ev('$pageview', '2024-01-02T10:00:00Z', { $browser: 'Safari', $current_url: 'https://x.com/pricing' })],
  });
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/actions/`, payload: { name: 'Pricing', steps: [{ event: '$pageview', url: '/pricing', url_matching: 'contains' }] } });
  actionId = res.json().id;
});

const base = { date_from: '2024-01-01', date_to: '2024-01-03' };

describe('POST /insights/trend/', () => {
  it('answers {result, timezone, is_cached, last_refresh, next} with the trend items', async () => {
    const res = await legacyTrend(t, who, { ...base, events: [{ id: '$pageview', math: 'dau' }] });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ timezone: 'UTC', is_cached: false, next: null });
    expect(typeof body.last_refresh).toBe('string');
    expect(body.result).toHaveLength(1);
    expect(body.result[0]).toMatchObject({ label: '$pageview', data: [1, 1, 0], days: ['2024-01-01', '2024-01-02', '2024-01-03'], count: 2 });
  });

  it('events and actions are merged into series by their order', async () => {
    const res = await legacyTrend(t, who, { ...base, events: [{ id: '$pageview', order: 1 }, { id: 'signup', order: 2 }], actions: [{ id: actionId, type: 'actions', order: 0 }] });
    expect(res.json().result.map((r: any) => [r.label, r.data])).toEqual([
      ['Pricing', [1, 1, 0]],
      ['$pageview', [2, 1, 0]],
      ['signup', [0, 1, 0]],
    ]);
  });

  it('properties, breakdown (with the "events" typo), display, formula and compare', async () => {
    const filtered = await legacyTrend(t, who, { ...base, events: [{ id: '$pageview' }], properties: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }] });
    expect(filtered.json().result[0].data).toEqual([2, 0, 0]);
    const broken = await legacyTrend(t, who, { ...base, events: [{ id: '$pageview' }], breakdown: '$browser', breakdown_type: 'events' });
    expect(broken.json().result.map((r: any) => [r.breakdown_value, r.count])).toEqual([['Chrome', 2], ['Safari', 1]]);
    const pie = await legacyTrend(t, who, { ...base, events: [{ id: '$pageview' }], display: 'ActionsPie' });
    expect(pie.json().result[0].aggregated_value).toBe(3);
    const formula = await legacyTrend(t, who, { ...base, events: [{ id: '$pageview', order: 0 }, { id: 'signup', order: 1 }], formula: 'A+B' });
    expect(formula.json().result.map((r: any) => [r.label, r.data])).toEqual([['Formula (A+B)', [2, 2, 0]]]);
    const compare = await legacyTrend(t, who, { date_from: '2024-01-02', date_to: '2024-01-02', events: [{ id: '$pageview' }], compare: true });
    expect(compare.json().result.map((r: any) => [r.compare_label, r.data])).toEqual([['current', [1]], ['previous', [2]]]);
  });

  it('interval "minute" is read as "hour", as PostHog converts old filters', async () => {
    const res = await legacyTrend(t, who, { date_from: '2024-01-01T09:00:00', date_to: '2024-01-01T12:00:00', events: [{ id: '$pageview' }], interval: 'minute' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result[0].data).toEqual([0, 1, 1, 0]);
  });

  it('errors name the legacy field the caller sent', async () => {
    expectValidationError(await legacyTrend(t, who, { ...base, events: [{ id: '$pageview', math: 'most' }] }), 'events[0].math', /most/, 'invalid_choice');
    expectValidationError(await legacyTrend(t, who, { ...base, events: [{ id: '$pageview' }], actions: [{ id: actionId, math: 'nope' }] }), 'actions[0].math', /nope/, 'invalid_choice');
    expectValidationError(await legacyTrend(t, who, { date_from: 'sometime', events: [{ id: '$pageview' }] }), 'date_from');
    expectValidationError(await legacyTrend(t, who, { ...base, events: [{ id: '$pageview' }], interval: 'decade' }), 'interval', /decade/, 'invalid_choice');
    expectValidationError(await legacyTrend(t, who, { ...base, events: [{ id: '$pageview' }], properties: [{ key: '$browser', operator: 'resembles', value: 'x' }] }), 'properties[0].operator', /resembles/, 'invalid_choice');
    expectValidationError(await legacyTrend(t, who, { ...base, events: [{ id: '$pageview' }], formula: 'A*C' }), 'formula', /C/);
    expectValidationError(await legacyTrend(t, who, { ...base, events: [{ id: '$pageview' }], breakdown: '$browser', breakdown_type: 'galaxy' }), 'breakdown_type', /galaxy/, 'invalid_choice');
    expectValidationError(await legacyTrend(t, who, { ...base, events: [{ id: '$pageview' }], compare: true, compare_to: 'soon' }), 'compare_to');
    expectValidationError(await legacyTrend(t, who, { ...base }), 'events', undefined, 'min_length');
  });
});

describe('GET /insights/trend/', () => {
  it('reads the same filters from the query string (lists and objects as JSON)', async () => {
    const res = await legacyTrendGet(t, who, { ...base, events: [{ id: '$pageview', math: 'dau' }], properties: [{ key: '$browser', value: 'Chrome' }], compare: 'true', interval: 'day' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.map((r: any) => [r.compare_label, r.data])).toEqual([['current', [1, 0, 0]], ['previous', [0, 0, 0]]]);
  });

  it('names errors by the query-string field', async () => {
    expectValidationError(await legacyTrendGet(t, who, { ...base, events: '[{"id": "$pageview"' }), 'events', undefined, 'parse_error');
    expectValidationError(await legacyTrendGet(t, who, { ...base, events: [{ id: '$pageview', math: 'lots' }] }), 'events[0].math', /lots/, 'invalid_choice');
  });
});
