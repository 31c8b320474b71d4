// Legacy trends filters keep `math_hogql` (PostHog's filter_to_query carries it to the series):
// math "hogql" through /insights/trend/ and through a saved insight's `filters`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, expectValidationError, freshProject, journeys, legacyTrend, legacyTrendGet } from './helpers.js';

let t: TestApp;
let who: Credentials;
beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await freshProject(t);
  await journeys(t, who, {
    alice: [
      ev('purchase', '2024-01-01T10:00:00Z', { price: '10.5' }),
      ev('purchase', '2024-01-01T11:00:00Z', { price: 4 }),
      ev('purchase', '2024-01-02T09:00:00Z', { price: 7 }),
    ],
    bob: [ev('purchase', '2024-01-03T10:00:00Z', { price: 100 })],
  });
});
afterAll(() => t.close());

const base = { date_from: '2024-01-01', date_to: '2024-01-04' };
const sumOfPrices = { id: 'purchase', math: 'hogql', math_hogql: 'sum(toFloat(properties.price))' };

describe('legacy math_hogql', () => {
  it('POST /insights/trend/ sums the expression per day', async () => {
    const res = await legacyTrend(t, who, { ...base, events: [sumOfPrices] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result[0]).toMatchObject({ data: [14.5, 7, 100, 0], count: 121.5 });
  });

  it('GET /insights/trend/ with the events as JSON, two hogql series', async () => {
    const res = await legacyTrendGet(t, who, { ...base, events: [sumOfPrices, { id: 'purchase', math: 'hogql', math_hogql: 'count(distinct person_id)', order: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.map((r: any) => r.data)).toEqual([[14.5, 7, 100, 0], [1, 1, 1, 0]]);
  });

  it('a saved insight with legacy filters calculates it', async () => {
    const filters = { insight: 'TRENDS', ...base, events: [sumOfPrices] };
    const created = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/insights/`, payload: { filters } });
    expect(created.statusCode, created.body).toBe(201);
    const res = await t.request(who.key, { method: 'GET', url: `/api/projects/${who.projectId}/insights/${created.json().id}/?refresh=blocking` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result[0].data).toEqual([14.5, 7, 100, 0]);
  });

  it('math "hogql" without math_hogql is still refused, named by the legacy field', async () => {
    const res = await legacyTrend(t, who, { ...base, events: [{ id: 'purchase', math: 'hogql' }] });
    expectValidationError(res, 'events[0].math_hogql', /math_hogql/, 'required');
  });
});
