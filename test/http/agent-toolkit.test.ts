// PostHog's agent toolkit (@posthog/agent-toolkit 0.2.4), unchanged, against a listening Hoglet:
// every tool that concerns what Hoglet has (organizations, projects, event and property
// definitions, insights, queries, dashboards) runs as an agent would run it. The toolkit parses
// each answer with its own zod schemas and throws on any mismatch, so a tool that returns is one
// whose answers have PostHog's shape.
import type { AddressInfo } from 'node:net';
import { PostHogAgentToolkit } from '@posthog/agent-toolkit/tools';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';

interface Tool { name: string; handler(context: unknown, params: unknown): Promise<{ content: { type: string; text: string }[] }> }

let t: TestApp;
let owner: Credentials;
let kit: PostHogAgentToolkit;
let tools: Map<string, Tool>;

/** Runs a tool as the toolkit's MCP server does, and parses its text answer. */
async function use(name: string, params: Record<string, unknown> = {}): Promise<any> {
  const tool = tools.get(name);
  if (!tool) throw new Error(`the toolkit offers no ${name} tool`);
  const answer = await tool.handler(kit.getContext(), params);
  const text = answer.content[0]!.text;
  try { return JSON.parse(text); } catch { return text; }
}

const TREND = {
  kind: 'InsightVizNode',
  source: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: '$pageview', custom_name: 'Views' }], dateRange: { date_from: '2024-01-01', date_to: '2024-01-03' } },
};

beforeAll(async () => {
  t = await createTestApp('sqlite');
  owner = await t.bootstrap('agent@example.com', { organization: 'Agent Org' });
  await journeys(t, owner, {
    ann: [ev('$pageview', '2024-01-01T10:00:00Z', { $browser: 'Firefox', plan_size: 3, $set: { email: 'ann@example.com' } }), ev('signed_up', '2024-01-02T10:00:00Z')],
    ben: [ev('$pageview', '2024-01-02T10:00:00Z', { $browser: 'Chrome', plan_size: 5 })],
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const host = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  kit = new PostHogAgentToolkit({ posthogApiToken: owner.key, posthogApiBaseUrl: host });
  tools = new Map((await kit.getTools() as unknown as Tool[]).map((tool) => [tool.name, tool]));
});
afterAll(() => t.close());

describe('the agent toolkit against Hoglet', () => {
  it('offers its tools to a key with every scope (it reads the key from /api/personal_api_keys/@current)', () => {
    for (const name of ['projects-get', 'insight-query', 'query-run', 'dashboard-get', 'event-definitions-list', 'properties-list']) {
      expect(tools.has(name), name).toBe(true);
    }
  });

  it('organizations, projects and switching between them', async () => {
    const [org] = await use('organizations-get');
    expect(org).toMatchObject({ name: 'Agent Org' });
    expect(await use('organization-details-get')).toMatchObject({ id: org.id, name: 'Agent Org' });
    expect(await use('projects-get')).toEqual([expect.objectContaining({ id: owner.projectId, organization: org.id })]);
    expect(await use('switch-project', { projectId: owner.projectId })).toBe(`Switched to project ${owner.projectId}`);
    expect(await use('switch-organization', { orgId: org.id })).toBe(`Switched to organization ${org.id}`);
  });

  it('event and property definitions, from the events the project holds', async () => {
    const events = await use('event-definitions-list');
    expect(events.map((e: { name: string }) => e.name)).toEqual(['$pageview', 'signed_up']);
    expect(await use('event-definitions-list', { q: 'sign' })).toEqual([expect.objectContaining({ name: 'signed_up' })]);
    const custom = await use('properties-list', { type: 'event', eventName: '$pageview' });
    expect(custom).toEqual([expect.objectContaining({ name: 'plan_size', property_type: 'Numeric' })]);
    const all = await use('properties-list', { type: 'event', eventName: '$pageview', includePredefinedProperties: true });
    expect(all.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['$browser', 'plan_size']));
    // Persons keep the properties capture sets on them ($browser, $initial_browser...) as well.
    expect(await use('properties-list', { type: 'person' })).toEqual(expect.arrayContaining([{ name: 'email', property_type: 'String' }, { name: '$initial_browser', property_type: 'String' }]));
  });

  it('runs trends and funnels with query-run', async () => {
    const [series] = await use('query-run', { query: TREND });
    expect(series).toMatchObject({ data: [1, 1, 0], count: 2 });
    const funnel = await use('query-run', {
      query: { kind: 'InsightVizNode', source: { kind: 'FunnelsQuery', series: [{ kind: 'EventsNode', event: '$pageview', custom_name: 'Visit' }, { kind: 'EventsNode', event: 'signed_up', custom_name: 'Sign up' }], dateRange: { date_from: '2024-01-01', date_to: '2024-01-03' } } },
    });
    expect(funnel.map((step: { count: number }) => step.count)).toEqual([2, 1]);
  });

  it('runs HogQL with query-run (a DataVisualizationNode around a HogQLQuery)', async () => {
    const ran = await use('query-run', { query: { kind: 'DataVisualizationNode', source: { kind: 'HogQLQuery', query: 'select event, count() as c from events group by event order by event' } } });
    expect(ran).toEqual([['$pageview', 2], ['signed_up', 1]]);
  });

  it('creates, finds, runs, updates and deletes an insight, and builds a dashboard around it', async () => {
    const insight = await use('insight-create-from-query', { data: { name: 'Agent views', query: TREND, favorited: false } });
    expect(insight).toMatchObject({ name: 'Agent views', short_id: expect.any(String) });
    expect((await use('insights-get-all', { data: { search: 'Agent' } })).map((i: { id: number }) => i.id)).toEqual([insight.id]);
    expect(await use('insight-get', { insightId: insight.short_id })).toMatchObject({ id: insight.id });
    expect(await use('insight-get', { insightId: String(insight.id) })).toMatchObject({ short_id: insight.short_id });
    const ran = await use('insight-query', { insightId: insight.short_id });
    expect(ran.results[0]).toMatchObject({ data: [1, 1, 0] });
    expect(await use('insight-update', { insightId: String(insight.id), data: { name: 'Agent views 2', query: TREND } })).toMatchObject({ name: 'Agent views 2' });

    const dashboard = await use('dashboard-create', { data: { name: 'Agent board', description: 'made by an agent', pinned: false } });
    expect((await use('dashboards-get-all', { data: { search: 'agent' } })).map((d: { id: number }) => d.id)).toEqual([dashboard.id]);
    await use('add-insight-to-dashboard', { data: { insightId: String(insight.id), dashboardId: dashboard.id } });
    const withTile = await use('dashboard-get', { dashboardId: dashboard.id });
    expect(withTile.tiles).toEqual([expect.objectContaining({ order: 0, insight: expect.objectContaining({ short_id: insight.short_id, name: 'Agent views 2' }) })]);
    expect(await use('dashboard-update', { dashboardId: dashboard.id, data: { name: 'Agent board 2' } })).toMatchObject({ name: 'Agent board 2' });
    expect(await use('dashboard-delete', { dashboardId: dashboard.id })).toMatchObject({ success: true });
    expect(await use('insight-delete', { insightId: String(insight.id) })).toMatchObject({ success: true });
    expect(await use('insights-get-all', { data: { search: 'Agent' } })).toEqual([]);
  });
});
