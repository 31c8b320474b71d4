// Paths as a client meets them: /query/, the legacy /insights/path/ (body and query string),
// saved insights with `insight: "PATHS"` (cache, CSV), the project's path cleaning rules, and the
// refusals, over events captured through /batch/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery } from '../../helpers/journeys.js';

const page = (url: string, at: string) => ev('$pageview', at, { $current_url: url });
const WEEK = { date_from: '2024-02-01', date_to: '2024-02-07' };
const paths = (filter: Record<string, unknown> = {}) => ({ kind: 'PathsQuery', dateRange: WEEK, pathsFilter: { includeEventTypes: ['$pageview'], ...filter } });
const edges = (results: { source: string; target: string; value: number }[]) => results.map((e) => `${e.source} > ${e.target}: ${e.value}`);

let t: TestApp;
let who: Credentials;
const api = () => `/api/projects/${who.projectId}`;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('paths-http@example.com');
  await journeys(t, who, {
    // / -> /pricing -> /signup (trailing slashes dropped; the repeat of /pricing collapses)
    ann: [page('/', '2024-02-02T10:00:00Z'), page('/pricing/', '2024-02-02T10:01:00Z'), page('/pricing', '2024-02-02T10:02:00Z'), page('/signup', '2024-02-02T10:05:00Z')],
    // / -> /pricing, then after an hour a new session: /blog/1 -> /blog/2
    bob: [page('/', '2024-02-03T10:00:00Z'), page('/pricing', '2024-02-03T10:03:00Z'), page('/blog/1', '2024-02-03T11:10:00Z'), page('/blog/2', '2024-02-03T11:11:00Z')],
    cat: [page('/', '2024-02-04T10:00:00Z'), ev('clicked', '2024-02-04T10:00:30Z'), page('/signup', '2024-02-04T10:01:00Z')],
  });
});
afterAll(() => t.close());

describe('paths through /query/', () => {
  it("answers PostHog's edges: position-keyed nodes, value, average milliseconds, by value", async () => {
    const { results } = await runQuery(t, who, paths());
    expect(edges(results)).toEqual(['1_/ > 2_/pricing: 2', '1_/ > 2_/signup: 1', '1_/blog/1 > 2_/blog/2: 1', '2_/pricing > 3_/signup: 1']);
    // ann reached /pricing after 2 minutes (the last of the run counts), bob after 3.
    expect(results[0]).toEqual({ source: '1_/', target: '2_/pricing', value: 2, average_conversion_time: 150_000 });
  });

  it('follows start and end points, groups, cleaning rules, custom events and the step limit', async () => {
    expect(edges((await runQuery(t, who, paths({ startPoint: '/pricing/' }))).results)).toEqual(['1_/pricing > 2_/signup: 1']);
    expect(edges((await runQuery(t, who, paths({ endPoint: '/signup' }))).results)).toEqual(['1_/ > 2_/pricing: 1', '1_/ > 2_/signup: 1', '2_/pricing > 3_/signup: 1']);
    // Grouped or cleaned alike, bob's two blog pages become one repeated item, which collapses.
    const grouped = edges((await runQuery(t, who, paths({ pathGroupings: ['/pri*', '/blog/*'] }))).results);
    expect(grouped).toEqual(['1_/ > 2_/pri*: 2', '1_/ > 2_/signup: 1', '2_/pri* > 3_/signup: 1']);
    expect(edges((await runQuery(t, who, paths({ localPathCleaningFilters: [{ regex: '/blog/\\d+', alias: '/blog/:id' }, { regex: '^/pricing$', alias: '/plans' }] }))).results))
      .toEqual(['1_/ > 2_/plans: 2', '1_/ > 2_/signup: 1', '2_/plans > 3_/signup: 1']);
    expect(edges((await runQuery(t, who, paths({ includeEventTypes: ['$pageview', 'custom_event'], stepLimit: 2 }))).results)).toEqual(['1_/ > 2_/pricing: 2', '1_/ > 2_clicked: 1', '1_/blog/1 > 2_/blog/2: 1']);
  });

  it("applies the project's path cleaning rules when pathReplacements is on", async () => {
    const patched = await t.request(who.key, { method: 'PATCH', url: `${api()}/`, payload: { path_cleaning_filters: [{ regex: '/blog/\\d+', alias: '/blog/<n>' }] } });
    expect(patched.statusCode, patched.body).toBe(200);
    // A project rule the engine would refuse is a 400 that names the setting.
    await t.request(who.key, { method: 'PATCH', url: `${api()}/`, payload: { path_cleaning_filters: [{ regex: '/blog/\\d+', alias: '/blog/\\2' }] } });
    const broken = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: paths({ pathReplacements: true }) } });
    expect(broken.statusCode, broken.body).toBe(400);
    expect(broken.json()).toMatchObject({ type: 'validation_error', attr: 'path_cleaning_filters[0].alias' });
    await t.request(who.key, { method: 'PATCH', url: `${api()}/`, payload: { path_cleaning_filters: [{ regex: '/blog/\\d+', alias: '/blog/<n>' }] } });
    // bob's /blog/1 -> /blog/2 becomes one cleaned item: the edge is gone.
    expect(edges((await runQuery(t, who, paths({ pathReplacements: true }))).results)).not.toContain('1_/blog/1 > 2_/blog/2: 1');
    expect(edges((await runQuery(t, who, paths())).results)).toContain('1_/blog/1 > 2_/blog/2: 1');
  });

  it('refuses what it cannot answer with a 400 naming the field', async () => {
    for (const [filter, attr] of [
      [{ stepLimit: 0 }, 'query.pathsFilter.stepLimit'],
      [{ stepLimit: 10_000 }, 'query.pathsFilter.stepLimit'],
      [{ includeEventTypes: ['$pageleave'] }, 'query.pathsFilter.includeEventTypes[0]'],
      [{ includeEventTypes: ['hogql'] }, 'query.pathsFilter.pathsHogQLExpression'],
      [{ localPathCleaningFilters: [{ regex: '(unclosed', alias: 'x' }] }, 'query.pathsFilter.localPathCleaningFilters[0].regex'],
      [{ edgeLimit: -1 }, 'query.pathsFilter.edgeLimit'],
      [{ localPathCleaningFilters: [{ regex: '/blog/\\d+', alias: '/blog/\\1' }] }, 'query.pathsFilter.localPathCleaningFilters[0].alias'],
      [{ pathGroupings: Array.from({ length: 21 }, (_, i) => `/g${i}/*`) }, 'query.pathsFilter.pathGroupings'],
    ] as const) {
      const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: paths(filter) } });
      expect(res.statusCode, `${attr}: ${res.body}`).toBe(400);
      expect(res.json(), attr).toMatchObject({ type: 'validation_error', attr });
    }
  });
});

describe('the actors of a node or an edge, and funnel paths', () => {
  const actorsOf = async (filter: Record<string, unknown>, target: Record<string, unknown> = {}) => {
    const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: { kind: 'InsightActorsQuery', source: paths(filter), ...target } } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().results.map(([person]: [{ distinct_ids: string[] }]) => person.distinct_ids.join(',')).sort();
  };

  it('lists who took an edge, reached a node, or stopped at one', async () => {
    expect(await actorsOf({ pathStartKey: '1_/', pathEndKey: '2_/pricing' })).toEqual(['ann', 'bob']);
    expect(await actorsOf({}, { pathStartKey: '2_/pricing', pathEndKey: '3_/signup' })).toEqual(['ann']);
    expect(await actorsOf({}, { pathEndKey: '2_/signup' })).toEqual(['cat']);
    expect(await actorsOf({}, { pathDropoffKey: '2_/pricing' })).toEqual(['bob']);
    const none = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query: { kind: 'InsightActorsQuery', source: paths() } } });
    expect(none.json()).toMatchObject({ type: 'validation_error', attr: 'pathStartKey' });
  });

  it("follows a funnel step's actors: after, before and between their step events", async () => {
    const funnelSource = { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: 'clicked' }], dateRange: WEEK };
    const funnelPaths = (type: string, step: number) => ({ ...paths({ includeEventTypes: [] }), funnelPathsFilter: { funnelPathType: type, funnelStep: step, funnelSource } });
    // Only cat clicked: after her click, / -> clicked -> /signup becomes clicked -> /signup.
    expect(edges((await runQuery(t, who, funnelPaths('funnel_path_after_step', 2))).results)).toEqual(['1_clicked > 2_/signup: 1']);
    expect(edges((await runQuery(t, who, funnelPaths('funnel_path_before_step', 2))).results)).toEqual(['1_/ > 2_clicked: 1']);
    expect(edges((await runQuery(t, who, funnelPaths('funnel_path_between_steps', 2))).results)).toEqual(['1_/ > 2_clicked: 1']);
    for (const [query, attr] of [
      [funnelPaths('funnel_path_after_step', -2), 'query.funnelPathsFilter.funnelStep'],
      [funnelPaths('funnel_path_between_steps', 1), 'query.funnelPathsFilter.funnelStep'],
      [funnelPaths('funnel_path_sideways', 1), 'query.funnelPathsFilter.funnelPathType'],
    ] as const) {
      const res = await t.request(who.key, { method: 'POST', url: `${api()}/query/`, payload: { query } });
      expect(res.json(), attr).toMatchObject({ type: 'validation_error', attr });
    }
    const legacy = await t.request(who.key, { method: 'POST', url: `${api()}/insights/path/`, payload: {
      date_from: WEEK.date_from, date_to: WEEK.date_to, funnel_paths: 'funnel_path_after_step',
      funnel_filter: { events: [{ id: '$pageview', order: 0 }, { id: 'clicked', order: 1 }], date_from: WEEK.date_from, date_to: WEEK.date_to, funnel_step: 2 },
    } });
    expect(legacy.statusCode, legacy.body).toBe(200);
    expect(edges(legacy.json().result)).toEqual(['1_clicked > 2_/signup: 1']);
  });
});

describe('legacy paths', () => {
  it('/insights/path/ takes the legacy keys in the body and the query string', async () => {
    const body = { insight: 'PATHS', include_event_types: ['$pageview'], start_point: '/', step_limit: 2, date_from: WEEK.date_from, date_to: WEEK.date_to };
    const viaPost = await t.request(who.key, { method: 'POST', url: `${api()}/insights/path/`, payload: body });
    expect(viaPost.statusCode, viaPost.body).toBe(200);
    expect(edges(viaPost.json().result)).toEqual(['1_/ > 2_/pricing: 2', '1_/ > 2_/signup: 1']);
    const params = new URLSearchParams({ include_event_types: JSON.stringify(['$pageview']), start_point: '/', step_limit: '2', date_from: WEEK.date_from, date_to: WEEK.date_to });
    const viaGet = await t.request(who.key, { method: 'GET', url: `${api()}/insights/path/?${params}` });
    expect(edges(viaGet.json().result)).toEqual(edges(viaPost.json().result));
    const bad = await t.request(who.key, { method: 'POST', url: `${api()}/insights/path/`, payload: { ...body, step_limit: 0 } });
    expect(bad.json()).toMatchObject({ type: 'validation_error', attr: 'step_limit' });
  });

  it('a saved insight with insight PATHS calculates, caches and exports its edges', async () => {
    const created = await t.request(who.key, { method: 'POST', url: `${api()}/insights/`, payload: { name: 'Paths', filters: { insight: 'PATHS', include_event_types: ['$pageview'], date_from: WEEK.date_from, date_to: WEEK.date_to } } });
    expect(created.statusCode, created.body).toBe(201);
    const url = `${api()}/insights/${created.json().id}/`;
    expect(edges((await t.request(who.key, { method: 'GET', url: `${url}?refresh=blocking` })).json().result)[0]).toBe('1_/ > 2_/pricing: 2');
    expect((await t.request(who.key, { method: 'GET', url })).json()).toMatchObject({ is_cached: true });
    const csv = (await t.request(who.key, { method: 'GET', url: `${url}results.csv` })).body.split('\r\n');
    expect(csv.slice(0, 3)).toEqual(['Paths', 'source,target,value,average_conversion_time', '1_/,2_/pricing,2,150000']);
  });
});
