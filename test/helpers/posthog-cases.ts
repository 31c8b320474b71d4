// Runs a query case ported from PostHog's tests the way a user would meet it: a project of its
// own (time zone and week start set through the Projects API, actions created through the
// Actions API), the events captured through /batch/ (group types registered first, in index
// order, since Hoglet numbers types as it meets them; an event's `$group_N` sent as `$groups`;
// persons' properties as `$set` on their first event), then the query through /query/. A case
// frozen at a `now` runs through its kind's module with that clock instead.
import { DateTime } from 'luxon';
import { expect } from 'vitest';
import type { ActionDefinition, QueryContext } from '../../src/query/context.js';
import { QueryExecutor } from '../../src/query/execute.js';
import { EMPTY_GROUP } from '../../src/query/nodes/read-properties.js';
import type { PathCleaningRule } from '../../src/query/nodes/schema.js';
import { kindOf, readInsightQuery } from '../../src/query/runners/registry.js';
import type { Credentials, TestApp } from './app.js';
import { postBatch, runQuery } from './journeys.js';

export interface PortedCase {
  timezone?: string;
  weekStartDay?: 0 | 1;
  /** distinct id -> person properties. */
  persons?: Record<string, Record<string, unknown>>;
  actions?: { id: number; name: string; steps: Record<string, unknown>[] }[];
  groupTypes?: { index: number; name: string }[];
  events: { distinct_id: string; event: string; timestamp: string; properties?: Record<string, unknown> }[];
  now?: string;
  /** Project settings to set through the Projects API first (path_cleaning_filters...). */
  projectSettings?: Record<string, unknown>;
  query: Record<string, unknown>;
}

let projects = 0;

export interface PreparedCase {
  who: Credentials;
  /** The query with the actions' placeholder ids replaced. */
  query: Record<string, unknown>;
  actionIds: Map<number, number>;
}

export async function prepareCase(t: TestApp, c: PortedCase): Promise<PreparedCase> {
  const who = await t.bootstrap(`ported-case-${++projects}@example.com`);
  const settings: Record<string, unknown> = { ...c.projectSettings };
  if (c.timezone) settings.timezone = c.timezone;
  if (c.weekStartDay !== undefined) settings.week_start_day = c.weekStartDay;
  if (Object.keys(settings).length > 0) {
    const res = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/`, payload: settings });
    expect(res.statusCode, res.body).toBe(200);
  }
  let queryText = JSON.stringify(c.query);
  const actionIds = new Map<number, number>();
  for (const action of c.actions ?? []) {
    const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/actions/`, payload: { name: action.name, steps: action.steps } });
    expect(res.statusCode, res.body).toBe(201);
    actionIds.set(action.id, res.json().id);
    queryText = queryText.replaceAll(`"id":${action.id}`, `"id":${res.json().id}`).replaceAll(`"id":"${action.id}"`, `"id":"${res.json().id}"`)
      // a web query's conversion goal names its action as actionId
      .replaceAll(`"actionId":${action.id}`, `"actionId":${res.json().id}`);
  }
  await capture(t, who, c);
  return { who, query: JSON.parse(queryText), actionIds };
}

async function capture(t: TestApp, who: Credentials, c: PortedCase): Promise<void> {
  const types = [...(c.groupTypes ?? [])].sort((a, b) => a.index - b.index);
  const setup = types.map((type) => ({ event: '$groupidentify', distinct_id: 'group-setup', timestamp: '2015-01-02T00:00:00Z', properties: { $group_type: type.name, $group_key: 'setup', $group_set: {} } }));
  const seen = new Set<string>();
  const events = [...c.events].sort((a, b) => a.timestamp.localeCompare(b.timestamp)).map((e) => {
    const properties: Record<string, unknown> = { ...(e.properties ?? {}) };
    const groups: Record<string, string> = {};
    for (const type of types) {
      const key = properties[`$group_${type.index}`];
      if (typeof key === 'string') groups[type.name] = key;
      delete properties[`$group_${type.index}`];
    }
    if (Object.keys(groups).length > 0) properties.$groups = { ...(properties.$groups as object | undefined), ...groups };
    const person = c.persons?.[e.distinct_id];
    if (person && !seen.has(e.distinct_id)) properties.$set = { ...person, ...(properties.$set as object | undefined) };
    seen.add(e.distinct_id);
    return { event: e.event, distinct_id: e.distinct_id, timestamp: e.timestamp, properties };
  });
  for (const distinctId of Object.keys(c.persons ?? {})) expect(seen.has(distinctId), `${distinctId} has no event to carry its properties`).toBe(true);
  for (const batch of [setup, events]) {
    if (batch.length === 0) continue;
    // PostHog's tests write their events directly, with no client address: sent as an import, so
    // capture adds no `$ip` (which would otherwise be one more property to correlate or list).
    const payload = { api_key: who.projectApiToken, historical_migration: true, batch };
    const res = await postBatch(t, payload);
    expect(res.statusCode, res.body).toBe(200);
  }
}

/** The case's `results`: through /query/, or with a frozen `now` through the kind's module. */
export async function caseResults(t: TestApp, c: PortedCase, prepared: PreparedCase): Promise<any[]> {
  if (!c.now) return (await runQuery(t, prepared.who, prepared.query)).results;
  const query = readInsightQuery(prepared.query);
  const actions = new Map<number, ActionDefinition>();
  for (const id of prepared.actionIds.values()) {
    const action = await t.services.actions.getForQuery(prepared.who.projectId, id);
    if (action) actions.set(action.id, action as ActionDefinition);
  }
  const context: QueryContext = {
    project: { id: prepared.who.projectId, timezone: c.timezone ?? 'UTC', weekStartDay: c.weekStartDay ?? 0 },
    now: DateTime.fromISO(c.now, { zone: 'UTC' }),
    actions,
    testAccountFilters: EMPTY_GROUP,
    pathCleaningRules: kindOf(query).appliesPathCleaning?.(query) ? (c.projectSettings?.path_cleaning_filters as PathCleaningRule[] | undefined) ?? [] : [],
  };
  const run = new QueryExecutor(t.services.events).start(prepared.who.projectId);
  return (await kindOf(query).run(query, context, run)).results as any[];
}
