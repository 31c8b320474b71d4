// The sessions table is read with FINAL, or grouped by session id with -Merge combinators (on a
// cluster; on one server when narrowed to listed ids: passes/group-session-states.ts). Both must give the same rows:
// fast-check writes HogQL selects reading random session fields (from `sessions` and as an event's
// `session.*`, with filters on them) over sessions captured in several /batch/ requests, with the
// store's merges stopped so each session's states lie in several parts, and runs each both ways.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Query } from '../../../src/query/ast/nodes.js';
import { closeSharedHogQLParser, sharedHogQLParser } from '../../../src/query/hogql/parse/index.js';
import { SESSION_FIELD_TYPES } from '../../../src/query/hogql/translate/sessions.js';
import { HogQLTranslator } from '../../../src/query/hogql/translate/translate.js';
import { boundSessionReads } from '../../../src/query/passes/bound-session-reads.js';
import { groupSessionStates } from '../../../src/query/passes/group-session-states.js';
import { scopeToProject } from '../../../src/query/passes/scope-to-project.js';
import { printQuery } from '../../../src/query/printer/print.js';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys, runQuery } from '../../helpers/journeys.js';

const SEED = process.env['HOGLET_PROPERTY_SEED'] ? Number(process.env['HOGLET_PROPERTY_SEED']) : undefined;

let t: TestApp;
let who: Credentials;
beforeAll(async () => {
  t = await createTestApp('sqlite');
  who = await t.bootstrap('shards@example.com');
  const db = t.services.events.layout.database;
  await t.services.events.command(`SYSTEM STOP MERGES ${db}.sessions`);
  const at = (session: string, minute: number, event: string, properties: Record<string, unknown> = {}) =>
    ev(event, new Date(Date.parse('2024-03-01T10:00:00Z') + minute * 60_000).toISOString(), { $session_id: session, ...properties });
  const page = (path: string, extra: Record<string, unknown> = {}) => ({ $current_url: `https://site.test${path}`, $pathname: path, ...extra });
  // Three requests, each adding events to the same sessions: three parts of states per session.
  await journeys(t, who, {
    anna: [at('s-a', 0, '$pageview', page('/', { utm_source: 'news', $referring_domain: 'news.test' })), at('s-b', 60, '$pageview', page('/docs'))],
    ben: [at('s-c', 5, '$pageview', page('/pricing', { gclid: 'g1' }))],
  });
  await runQuery(t, who, { kind: 'HogQLQuery', query: 'select count() from events' });
  await journeys(t, who, {
    anna: [at('s-a', 1, '$autocapture', page('/')), at('s-a', 2, '$pageview', page('/signup', { $external_click_url: 'https://out.test' }))],
    ben: [at('s-c', 4, '$screen', { $web_vitals_LCP_value: 812 }), at('s-d', 30, '$pageview', page('/blog'))],
  });
  await runQuery(t, who, { kind: 'HogQLQuery', query: 'select count() from events' });
  await journeys(t, who, {
    anna: [at('s-b', 59, '$pageview', page('/start'))],
    ben: [at('s-c', 9, '$pageview', page('/pricing')), at('s-d', 30.1, '$pageview', page('/blog'))],
    cleo: [at('s-e', 3, '$pageview', page('/'))],
  });
  await runQuery(t, who, { kind: 'HogQLQuery', query: 'select count() from events' });
});
afterAll(async () => {
  await t.close();
  await closeSharedHogQLParser();
});

const FIELDS = SESSION_FIELD_TYPES.map((f) => f.name);
/** A field as text; $urls sorted, as groupUniqArray's order is the engine's choice. */
const shown = (on: string, name: string) => (name === '$urls' ? `toString(arraySort(${on}${name}))` : `toString(${on}${name})`);
/** Filters on session fields, each read through `on` ('' in the sessions table, 'session.' from events). */
const FILTERS = [
  (on: string) => `${on}$session_duration > 60`, (on: string) => `${on}$entry_pathname = '/'`, (on: string) => `${on}$is_bounce = 1`,
  (on: string) => `${on}$pageview_count >= 2`, (on: string) => `${on}$channel_type != 'Direct'`, (on: string) => `isNotNull(${on}$vitals_lcp)`,
  (on: string) => `has(${on}$urls, 'https://site.test/')`,
];

const fromSessions = fc.record({
  fields: fc.uniqueArray(fc.constantFrom(...FIELDS), { minLength: 1, maxLength: 5 }),
  filter: fc.option(fc.constantFrom(...FILTERS), { nil: undefined }),
}).map(({ fields, filter }) => `select session_id, ${fields.map((f) => shown('', f)).join(', ')} from sessions${filter ? ` where ${filter('')}` : ''}`);

const fromEvents = fc.record({
  fields: fc.uniqueArray(fc.constantFrom(...FIELDS), { minLength: 1, maxLength: 4 }),
  filter: fc.option(fc.constantFrom(...FILTERS), { nil: undefined }),
}).map(({ fields, filter }) => `select uuid, ${fields.map((f) => shown('session.', f)).join(', ')} from events`
  + ` where timestamp >= toDateTime('2024-03-01') and timestamp < toDateTime('2024-03-02')${filter ? ` and ${filter('session.')}` : ''}`);

async function translated(text: string): Promise<Query> {
  const root = await sharedHogQLParser().parse('select', text, who.projectId);
  return boundSessionReads(new HogQLTranslator({ timezone: 'UTC', values: {} }).statement(root).query);
}

async function rows(query: Query) {
  const { sql, params } = printQuery(scopeToProject(query, who.projectId), t.services.events.layout.database);
  const found = await t.services.events.query<Record<string, unknown>>(sql, params);
  return { sql, rows: found.map((row) => JSON.stringify(Object.values(row))).sort() };
}

describe('reading sessions on a cluster (grouped) and on one server (FINAL)', () => {
  it('keeps each session in several parts here, so FINAL has states to merge', async () => {
    const db = t.services.events.layout.database;
    const [parts] = await t.services.events.query<{ n: string }>(`SELECT count() AS n FROM system.parts WHERE database = '${db}' AND table = 'sessions' AND active`);
    expect(Number(parts!.n)).toBeGreaterThanOrEqual(3);
    const final = await rows(await translated('select session_id, $pageview_count from sessions'));
    expect(final.sql).toContain('`sessions` FINAL');
    expect(final.rows).toEqual(['["s-a","2"]', '["s-b","2"]', '["s-c","2"]', '["s-d","2"]', '["s-e","1"]']);
  });

  it('on one server, groups only the reads narrowed to listed sessions (an IN from the events), and answers the same', async () => {
    const narrowed = await translated("select uuid, session.$session_duration from events where event = '$pageview' and timestamp >= toDateTime('2024-03-01') and timestamp < toDateTime('2024-03-02')");
    const ranged = await translated('select session_id, $session_duration from sessions');
    const narrowedRead = await rows(groupSessionStates(narrowed, 'narrowed to listed ids'));
    expect(narrowedRead.sql).toMatch(/`raw`\.`session_id` IN \(SELECT/);
    expect(narrowedRead.sql).toContain('GROUP BY `raw`.`session_id`');
    expect(narrowedRead.sql).not.toContain('FINAL');
    expect(narrowedRead.rows).toEqual((await rows(narrowed)).rows);
    const rangedRead = await rows(groupSessionStates(ranged, 'narrowed to listed ids'));
    expect(rangedRead.sql).toContain('`sessions` FINAL');
    expect(rangedRead.sql).not.toContain('GROUP BY');
  });

  it('answers every generated select the same both ways', async () => {
    await fc.assert(fc.asyncProperty(fc.oneof(fromSessions, fromEvents), async (text) => {
      const query = await translated(text);
      const final = await rows(query);
      const grouped = await rows(groupSessionStates(query, 'every'));
      expect(grouped.sql).not.toContain('FINAL');
      expect(grouped.sql).toContain('GROUP BY `raw`.`session_id`');
      expect(grouped.rows, text).toEqual(final.rows);
    }), { numRuns: 60, seed: SEED });
  }, 120_000);
});
