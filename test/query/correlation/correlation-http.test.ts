// Funnel correlation as a client meets it: /query/, the legacy /insights/funnel/correlation/ (body
// and query string), a saved insight whose query is a FunnelCorrelationQuery, and the refusals,
// over events captured through /batch/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery, type JourneyEvent } from '../../helpers/journeys.js';

const funnel = { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: 'signed_up' }, { kind: 'EventsNode', event: 'purchased' }], dateRange: { date_from: '2024-03-01', date_to: '2024-03-07' } };
const correlation = (type: string, extra: Record<string, unknown> = {}) =>
  ({ kind: 'FunnelCorrelationQuery', source: { kind: 'FunnelsActorsQuery', source: funnel }, funnelCorrelationType: type, ...extra });
type Item = { event: { event: string }; success_count: number; failure_count: number; odds_ratio: number; correlation_type: string };
const summary = (events: Item[]) => events.map((i) => `${i.event.event} ${i.correlation_type} ${i.success_count}/${i.failure_count} ${i.odds_ratio.toFixed(4)}`);

let t: TestApp;
let who: Credentials;
const api = () => `/api/projects/${who.projectId}`;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('correlation-http@example.com');
  const stories: Record<string, JourneyEvent[]> = {};
  for (let i = 0; i < 5; i++) {
    // Converters watched a video between signing up and buying; drop-offs saw an error.
    stories[`buyer${i}`] = [ev('signed_up', '2024-03-02T10:00:00Z', { $set: { plan: 'pro' } }), ev('watched_video', '2024-03-02T10:05:00Z', { length: 'long' }), ev('purchased', '2024-03-02T11:00:00Z')];
    stories[`leaver${i}`] = [ev('signed_up', '2024-03-02T10:00:00Z', { $set: { plan: 'free' } }), ev('saw_error', '2024-03-02T10:05:00Z', { code: '500' })];
  }
  await journeys(t, who, stories);
});
afterAll(() => t.close());

describe('funnel correlation through /query/', () => {
  it('events that go with converting and with dropping off, with PostHog odds ratios', async () => {
    const { results } = await runQuery(t, who, correlation('events'));
    // (5+1)(5-0+1) / ((5-5+1)(0+1)) = 36, and its inverse.
    expect(summary(results.events)).toEqual(['watched_video success 5/0 36.0000', 'saw_error failure 0/5 0.0278']);
    expect(results.skewed).toBe(false);
    expect(results.events[0].event).toEqual({ event: 'watched_video', properties: {}, elements: [] });
    const excluded = (await runQuery(t, who, correlation('events', { funnelCorrelationExcludeEventNames: ['saw_error'] }))).results;
    expect(summary(excluded.events)).toEqual(['watched_video success 5/0 36.0000']);
  });

  it('person properties and event properties', async () => {
    const plan = (await runQuery(t, who, correlation('properties', { funnelCorrelationNames: ['plan'] }))).results;
    expect(summary(plan.events)).toEqual(['plan::pro success 5/0 36.0000', 'plan::free failure 0/5 0.0278']);
    const all = (await runQuery(t, who, correlation('properties', { funnelCorrelationNames: ['$all'], funnelCorrelationExcludeNames: ['plan'] }))).results;
    expect(all.events.map((i: Item) => i.event.event)).not.toContain('plan::pro');
    // Every captured event carries the client's `$ip` (all one address here): excluded as `$lib` is.
    const props = (await runQuery(t, who, correlation('event_with_properties', { funnelCorrelationEventNames: ['watched_video', 'saw_error'], funnelCorrelationEventExcludePropertyNames: ['$lib', '$ip'] }))).results;
    expect(summary(props.events)).toEqual(['watched_video::length::long success 5/0 36.0000', 'saw_error::code::500 failure 0/5 0.0278']);
  });

  it('refuses what it cannot answer with a 400 naming the field', async () => {
    for (const [query, attr] of [
      [correlation('events', { source: { kind: 'FunnelsActorsQuery', source: { ...funnel, series: [funnel.series[0]] } } }), 'query.source.source.series'],
      [correlation('events', { source: { kind: 'FunnelsQuery' } }), 'query.source.kind'],
      [correlation('sometimes'), 'query.funnelCorrelationType'],
      [correlation('properties'), 'query.funnelCorrelationNames'],
      [correlation('event_with_properties'), 'query.funnelCorrelationEventNames'],
    ] as const) {
      const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query } });
      expect(res.statusCode, `${attr}: ${res.body}`).toBe(400);
      expect(res.json(), attr).toMatchObject({ type: 'validation_error', attr });
    }
  });
});

describe('the actors of a correlation item', () => {
  const actorsOf = async (source: unknown, target: Record<string, unknown>) => {
    const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: { kind: 'ActorsQuery', source: { kind: 'FunnelCorrelationActorsQuery', source, ...target }, select: ['person'] } } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results.map(([person]: [{ distinct_ids: string[] }]) => person.distinct_ids[0]).sort();
  };
  const buyers = ['buyer0', 'buyer1', 'buyer2', 'buyer3', 'buyer4'];
  const leavers = ['leaver0', 'leaver1', 'leaver2', 'leaver3', 'leaver4'];

  it('lists the converters or the drop-offs behind an event, a property value or an event property', async () => {
    expect(await actorsOf(correlation('events'), { funnelCorrelationPersonConverted: true, funnelCorrelationPersonEntity: { kind: 'EventsNode', event: 'watched_video' } })).toEqual(buyers);
    expect(await actorsOf(correlation('events'), { funnelCorrelationPersonConverted: false, funnelCorrelationPersonEntity: { kind: 'EventsNode', event: 'watched_video' } })).toEqual([]);
    expect(await actorsOf(correlation('events'), { funnelCorrelationPersonConverted: false, funnelCorrelationPersonEntity: { kind: 'EventsNode', event: 'saw_error' } })).toEqual(leavers);
    const plan = correlation('properties', { funnelCorrelationNames: ['plan'] });
    expect(await actorsOf(plan, { funnelCorrelationPersonConverted: true, funnelCorrelationPropertyValues: [{ key: 'plan', value: 'pro', operator: 'exact', type: 'person' }] })).toEqual(buyers);
    const props = correlation('event_with_properties', { funnelCorrelationEventNames: ['saw_error'] });
    expect(await actorsOf(props, { funnelCorrelationPersonConverted: false, funnelCorrelationPersonEntity: { kind: 'EventsNode', event: 'saw_error', properties: [{ key: 'code', value: '500', type: 'event' }] } })).toEqual(leavers);
    const missing = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: { kind: 'FunnelCorrelationActorsQuery', source: correlation('events') } } });
    expect(missing.json()).toMatchObject({ type: 'validation_error', attr: 'funnelCorrelationPersonConverted' });
  });
});

describe('legacy funnel correlation', () => {
  const body = { events: [{ id: 'signed_up', order: 0 }, { id: 'purchased', order: 1 }], date_from: '2024-03-01', date_to: '2024-03-07', funnel_correlation_type: 'events' };

  it('/insights/funnel/correlation/ takes the funnel filter plus funnel_correlation_* in the body and the query string', async () => {
    const viaPost = await t.request(who.key, { method: 'POST', url: `${api()}/insights/funnel/correlation/`, payload: body });
    expect(viaPost.statusCode, viaPost.body).toBe(200);
    expect(summary(viaPost.json().result.events)).toEqual(['watched_video success 5/0 36.0000', 'saw_error failure 0/5 0.0278']);
    expect(viaPost.json()).toMatchObject({ result: { skewed: false }, is_cached: false });
    const params = new URLSearchParams({ events: JSON.stringify(body.events), date_from: body.date_from, date_to: body.date_to, funnel_correlation_type: 'properties', funnel_correlation_names: JSON.stringify(['plan']) });
    const viaGet = await t.request(who.key, { method: 'GET', url: `${api()}/insights/funnel/correlation/?${params}` });
    expect(summary(viaGet.json().result.events)).toEqual(['plan::pro success 5/0 36.0000', 'plan::free failure 0/5 0.0278']);
    const bad = await t.request(who.key, { method: 'POST', url: `${api()}/insights/funnel/correlation/`, payload: { ...body, funnel_correlation_type: 'properties' } });
    expect(bad.json()).toMatchObject({ type: 'validation_error', attr: 'funnel_correlation_names' });
  });

  it('a saved insight whose query is a FunnelCorrelationQuery calculates and caches', async () => {
    const created = await t.request(who.key, { method: 'POST', url: `${api()}/insights/`, payload: { name: 'Why they buy', query: correlation('events') } });
    expect(created.statusCode, created.body).toBe(201);
    const url = `${api()}/insights/${created.json().id}/`;
    expect(summary((await t.request(who.key, { method: 'GET', url: `${url}?refresh=blocking` })).json().result.events)[0]).toBe('watched_video success 5/0 36.0000');
    expect((await t.request(who.key, { method: 'GET', url })).json()).toMatchObject({ is_cached: true });
    const csv = (await t.request(who.key, { method: 'GET', url: `${url}results.csv` })).body.split('\r\n');
    expect(csv.slice(1, 3)).toEqual(['event,correlation_type,odds_ratio,success_count,failure_count', 'watched_video,success,36,5,0']);

    // A dashboard's date range applies to the funnel inside: a week without those journeys.
    const dashboard = (await t.request(who.key, { method: 'POST', url: `${api()}/dashboards/`, payload: { name: 'Why', filters: { date_from: '2024-04-01', date_to: '2024-04-07' } } })).json();
    await t.request(who.key, { method: 'PATCH', url, payload: { dashboards: [dashboard.id] } });
    const viaDashboard = (await t.request(who.key, { method: 'GET', url: `${url}?from_dashboard=${dashboard.id}&refresh=blocking` })).json();
    expect(viaDashboard.result).toEqual({ events: [], skewed: true });
  });
});
