// Web analytics cases of the query benchmark (issue 30): the overview and each stats table the Web
// analytics page loads, Hoglet's WebOverviewQuery / WebStatsTableQuery against hand-written
// ClickHouse SQL for the same numbers. Periods are pinned: explicit whole UTC days ending the day
// before the data set's last day, compared with the same number of days before them (PostHog's
// previous period of an explicit range), so both sides read the same bounds without a clock.
//
// The hand-written side reads what a ClickHouse user of this schema would: the page views of both
// periods (one contiguous range) with persons resolved through merges, and the sessions table's
// states merged per session and joined to them. Definitions it shares with Hoglet:
// a session counts in the period of its start; visitors are distinct persons, views page views,
// bounce as PostHog's sessions table has it (no second page view, no autocapture, under 10 s);
// Page's bounce rate is that of the sessions entering on the page. Properties are read with
// their columns (event-store migration 5), empty as NULL: the generator writes no empty or JSON-null values.
import { readFileSync } from 'node:fs';
import { ROOT } from '../lib/harness.js';
import path from 'node:path';

const DAY_MS = 86_400_000;
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

/** The pinned periods of a window of `days` days: current ends the day before the data's last day. */
export function webPeriods(nowMs, days) {
  const lastDay = Math.floor(nowMs / DAY_MS) * DAY_MS - DAY_MS;
  const from = lastDay - (days - 1) * DAY_MS;
  const previousFrom = from - days * DAY_MS;
  const start = (ms) => `${isoDay(ms)} 00:00:00.000000`;
  const end = (ms) => `${isoDay(ms)} 23:59:59.999999`;
  return {
    dateRange: { date_from: isoDay(from), date_to: isoDay(lastDay) },
    params: { c0: start(from), c1: end(lastDay), p0: start(previousFrom), p1: end(from - DAY_MS) },
  };
}

const T = (name) => `{${name}:DateTime64(6, 'UTC')}`;
const inCurrent = (x) => `(${x} >= ${T('c0')} AND ${x} <= ${T('c1')})`;
const inPrevious = (x) => `(${x} >= ${T('p0')} AND ${x} <= ${T('p1')})`;
const blankAsNull = (x) => `nullIf(nullIf(${x}, 'null'), '')`;

/** Page views of both periods (the previous ends where the current starts), persons resolved. */
function pageViews(db, columns) {
  return `SELECT e.\`$session_id\` AS sid, if(notEmpty(o.distinct_id), o.person_id, e.person_id) AS person, e.event AS event${columns ? `, ${columns}` : ''}
    FROM ${db}.events AS e
    LEFT JOIN (SELECT distinct_id, argMax(person_id, version) AS person_id FROM ${db}.person_distinct_id_overrides
               WHERE team_id = {team:UInt64} GROUP BY distinct_id) AS o ON e.distinct_id = o.distinct_id
    WHERE e.team_id = {team:UInt64} AND e.event IN ('$pageview', '$screen') AND notEmpty(e.\`$session_id\`)
      AND e.timestamp >= ${T('p0')} AND e.timestamp <= ${T('c1')}`;
}

/**
 * The project's sessions near the periods (by the v7 id's time, on the table's key, as Hoglet
 * bounds them: 2 days before, 1 after; ids without a time always), read with FINAL (the engine
 * merges each session's states as it reads, where parts overlap); `fields` are more finalized
 * columns. (Narrowing them to the page views' session ids with IN was measured slower on the 10M
 * set: 2.4M ids.) Page views and autocaptures are the small counts: the bounce rule only asks
 * "more than one?" and "any?".
 */
function sessions(db, fields = '', withClause = '') {
  return `${withClause}SELECT session_id, min_timestamp AS start, max_timestamp AS end,
      finalizeAggregation(pageviews_up_to_2) AS pageviews, finalizeAggregation(autocaptures_up_to_1) AS autocaptures${fields ? `, ${fields}` : ''}
    FROM ${db}.sessions FINAL
    WHERE team_id = {team:UInt64}
      AND (session_start_hint = 0 OR session_start_hint BETWEEN toDateTime(${T('p0')}) - INTERVAL 2 DAY AND toDateTime(${T('c1')}) + INTERVAL 1 DAY)`;
}

const DURATION = "dateDiff('second', s.start, s.end)";
const BOUNCE = `if(s.pageviews = 0, NULL, NOT (s.pageviews > 1 OR s.autocaptures > 0 OR ${DURATION} >= 10))`;
const num = (v) => (v === null || v === undefined ? null : Number(v));
const nanAsNull = (v) => (v === null || v === undefined || Number.isNaN(Number(v)) ? null : Number(v));

/**
 * PostHog's channel lookups from its definitions (the file Hoglet bundles), as SQL arrays named
 * once in a WITH (the lists are long, and the query text has a size limit): per kind (source,
 * medium) the type if paid and the type if organic.
 */
function channelLookups() {
  const rows = JSON.parse(readFileSync(path.join(ROOT, 'src/query/hogql/translate/channel-definitions.json'), 'utf8'));
  const list = (values) => `[${values.map((v) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`).join(', ')}]`;
  const arrays = [];
  for (const kind of ['source', 'medium']) {
    for (const [side, column] of [['paid', 3], ['organic', 4]]) {
      const kept = rows.filter((row) => row[1] === kind && row[column]);
      arrays.push(`${list(kept.map((row) => row[0]))} AS ${side}_${kind}_keys, ${list(kept.map((row) => row[column]))} AS ${side}_${kind}_types`);
    }
  }
  const lookup = (side, kind, x) => `nullIf(transform(coalesce(${x}, ''), ${side}_${kind}_keys, ${side}_${kind}_types, ''), '')`;
  return {
    withClause: `WITH ${arrays.join(', ')} `,
    // A source is looked up as it is, then by its registrable domain (www.google.com -> google.com).
    source: (side, x) => `coalesce(${lookup(side, 'source', x)}, ${lookup(side, 'source', `cutToFirstSignificantSubdomain(coalesce(${x}, ''))`)})`,
    medium: (side, x) => lookup(side, 'medium', x),
  };
}

/**
 * The channel of a session from its entry values, PostHog's default rules written out (first
 * match wins): cross-network campaigns; paid traffic (a paid medium, a Google click id or
 * gad_source) by source, shopping campaign, medium, referring domain, then the paid fallbacks;
 * Direct; else organic by source, shopping campaign, medium, referring domain, then the organic
 * fallbacks.
 */
function channelSql() {
  const { source, medium } = channelLookups();
  const src = 'lower(entry_src)';
  const med = 'lower(entry_med)';
  const camp = "coalesce(lower(entry_camp), '')";
  const ref = 'entry_ref';
  const shopping = `match(${camp}, '^(.*(([^a-df-z]|^)shop|shopping).*)$')`;
  const video = `match(${camp}, 'video')`;
  const fbclid = 'entry_fbclid IS NOT NULL';
  const paid = `(${med} IN ('cpc', 'cpm', 'cpv', 'cpa', 'ppc', 'retargeting') OR startsWith(coalesce(${med}, ''), 'paid') OR entry_gclid IS NOT NULL OR entry_gad IS NOT NULL)`;
  return `multiIf(match(${camp}, 'cross-network'), 'Cross Network',
    ${paid}, coalesce(${source('paid', src)}, if(${shopping}, 'Paid Shopping', NULL), ${medium('paid', med)}, ${source('paid', ref)},
      multiIf(entry_gad = '1', 'Paid Search', ${video}, 'Paid Video', ${fbclid}, 'Paid Social', 'Paid Unknown')),
    ${ref} = '$direct' AND ${med} IS NULL AND (${src} IS NULL OR ${src} IN ('(direct)', 'direct', '$direct')) AND NOT ${fbclid}, 'Direct',
    coalesce(${source('organic', src)}, if(${shopping}, 'Organic Shopping', NULL), ${medium('organic', med)}, ${source('organic', ref)},
      multiIf(${video}, 'Organic Video', endsWith(coalesce(${med}, ''), 'push'), 'Push', ${fbclid}, 'Organic Social', ${ref} = '$direct', 'Direct', ${ref} IS NOT NULL, 'Referral', 'Unknown')))`;
}

// The sessions table's entry and end values (event-store migration 4: a column each).
const ENTRY = {
  get channel() { return channelSql(); },
  entry_url: `${blankAsNull('finalizeAggregation(entry_current_url)')}`,
  end_url: `${blankAsNull('finalizeAggregation(end_current_url)')}`,
  entry_ref: `${blankAsNull('finalizeAggregation(entry_referring_domain)')}`,
  entry_src: `${blankAsNull('finalizeAggregation(entry_utm_source)')}`,
  entry_med: `${blankAsNull('finalizeAggregation(entry_utm_medium)')}`,
  entry_camp: `${blankAsNull('finalizeAggregation(entry_utm_campaign)')}`,
  entry_gclid: `${blankAsNull('finalizeAggregation(entry_gclid)')}`,
  entry_gad: `${blankAsNull('finalizeAggregation(entry_gad_source)')}`,
  entry_fbclid: `${blankAsNull('finalizeAggregation(entry_fbclid)')}`,
};

/** The breakdowns the page's tiles load, each as its hand-written value and the rows it keeps. */
function breakdowns() {
  const session = (fields, value, keep = 'value IS NOT NULL', extra = {}) => ({ fields, event: '', value, keep, ...extra });
  // The property's column (event-store migration 5), as a ClickHouse user of this schema reads it.
  const event = (key) => ({ fields: [], event: `nullIf(e.\`mat_${key}\`, '') AS ev_value`, value: 'g.ev_value', keep: 'value IS NOT NULL' });
  return {
    Page: { ...event('$pathname'), bounce: true },
    InitialPage: { ...session(['entry_url'], 'path(s.entry_url)'), bounce: true },
    ExitPage: session(['end_url'], 'path(s.end_url)'),
    // The channel is worked out beside the merged entry values, in the sessions subquery.
    InitialChannelType: session(['entry_src', 'entry_med', 'entry_camp', 'entry_ref', 'entry_gclid', 'entry_gad', 'entry_fbclid', 'channel'], 's.channel', "value IS NOT NULL AND value != ''", { withClause: channelLookups().withClause }),
    InitialReferringDomain: session(['entry_ref'], 's.entry_ref'),
    InitialUTMSource: session(['entry_src'], 's.entry_src', '1'),
    Browser: event('$browser'),
    OS: event('$os'),
    DeviceType: event('$device_type'),
    Country: event('$geoip_country_code'),
  };
}

const LIMIT = 10;
/** The engine's time limit for a hand-written statement (the store's default is 30 s, as Hoglet's). */
const HAND_OPTIONS = { timeoutSeconds: 110 };

/** A stats table's rows: per value, [current, previous] visitors and views (and bounce), fill. */
function statsSql(db, by, spec) {
  const fields = spec.fields.map((f) => `${ENTRY[f]} AS ${f}`).join(', ');
  // Rows per (session, value); bounce per session for the tables with a bounce rate.
  // Page views grouped per (session, event value) first, then joined to their merged sessions once per group.
  const grouped = `SELECT x.sid AS sid${spec.event ? ', x.ev_value AS ev_value' : ''}, any(x.person) AS person, count() AS views
    FROM (${pageViews(db, spec.event)}) AS x GROUP BY sid${spec.event ? ', ev_value' : ''}`;
  const perSession = `SELECT g.sid AS sid, ${spec.value} AS value, g.person AS person, g.views AS views, s.start AS start
      ${spec.bounce && by !== 'Page' ? `, ${BOUNCE} AS is_bounce` : ''}
    FROM (${grouped}) AS g
    INNER JOIN (${sessions(db, fields, spec.withClause)}) AS s ON s.session_id = g.sid
    WHERE ${spec.keep.replaceAll('value', `(${spec.value})`)}`;
  const bounceOf = (period) => `if(isNaN(avgIf(is_bounce, ${period('start')})), NULL, avgIf(is_bounce, ${period('start')}))`;
  const bounceColumns = spec.bounce && by !== 'Page' ? `, ${bounceOf(inCurrent)} AS bc, ${bounceOf(inPrevious)} AS bp` : '';
  let sql = `SELECT value, uniqExactIf(person, ${inCurrent('start')}) AS vc, uniqExactIf(person, ${inPrevious('start')}) AS vp,
      sumIf(views, ${inCurrent('start')}) AS pc, sumIf(views, ${inPrevious('start')}) AS pp${bounceColumns},
      vc / sum(vc) OVER () AS fill
    FROM (${perSession}) GROUP BY value`;
  if (by === 'Page') {
    // Each page's bounce rate: that of the sessions entering on it (any page view in the periods).
    const entry = `SELECT path(s.entry_url) AS value, ${bounceOf(inCurrent)} AS bc, ${bounceOf(inPrevious)} AS bp
      FROM (SELECT ${BOUNCE} AS is_bounce, s.entry_url AS entry_url, s.start AS start
            FROM (SELECT DISTINCT x.sid AS sid FROM (${pageViews(db, '')}) AS x) AS g
            INNER JOIN (${sessions(db, `${ENTRY.entry_url} AS entry_url`)}) AS s ON s.session_id = g.sid) AS s
      GROUP BY value`;
    sql = `SELECT t.value AS value, vc, vp, pc, pp, b.bc AS bc, b.bp AS bp, fill
      FROM (${sql}) AS t LEFT JOIN (${entry}) AS b ON b.value = t.value
      SETTINGS join_use_nulls = 1`;
  }
  return `SELECT * FROM (${sql}) ORDER BY vc DESC, vp DESC, pc DESC, pp DESC, value ASC LIMIT ${LIMIT + 1}`;
}

function statsRows(withBounce) {
  return (rows) => rows.slice(0, LIMIT).map((r) => [
    r.value ?? null, [num(r.vc), num(r.vp)], [num(r.pc), num(r.pp)],
    ...(withBounce ? [[nanAsNull(r.bc), nanAsNull(r.bp)]] : []), nanAsNull(r.fill),
  ]);
}

function overviewSql(db) {
  const per = `SELECT g.sid AS sid, g.person AS person, g.views AS views, s.start AS start,
      ${DURATION} AS duration, ${BOUNCE} AS is_bounce
    FROM (SELECT x.sid AS sid, any(x.person) AS person, count() AS views FROM (${pageViews(db, '')}) AS x GROUP BY sid) AS g
    INNER JOIN (${sessions(db)}) AS s ON s.session_id = g.sid`;
  const pair = (fn, column) => `${fn}If(${column}, ${inCurrent('start')}), ${fn}If(${column}, ${inPrevious('start')})`;
  return `SELECT [${pair('uniqExact', 'person')}, ${pair('sum', 'views')}, ${pair('uniqExact', 'sid')},
      ${pair('avg', 'duration')}, ${pair('avg', 'is_bounce')}] AS m FROM (${per})`;
}

/** Hoglet's statement time (the engine's, of every statement of the request), for the notes. */
const statementMs = (body) => ({ statement: body.timings.filter((t) => t.k.startsWith('./query_')).reduce((sum, t) => sum + t.t * 1000, 0) });

const OVERVIEW_KEYS = ['visitors', 'views', 'sessions', 'session duration', 'bounce rate'];

/** The overview as [key, value, previous], bounce rate in percent. */
function overviewRows(rows) {
  const m = rows[0].m.map(nanAsNull);
  return OVERVIEW_KEYS.map((key, i) => {
    const scale = key === 'bounce rate' ? 100 : 1;
    const v = m[2 * i];
    const p = m[2 * i + 1];
    return [key, v === null ? null : v * scale, p === null ? null : p * scale];
  });
}

/** The base of every web query the page sends (compare on, no filters, path cleaning on). */
export const webBase = (dateRange) => ({ dateRange, properties: [], compareFilter: { compare: true }, filterTestAccounts: false });

export function statsQuery(by, dateRange, limit = LIMIT) {
  const spec = breakdowns()[by];
  const cleaning = ['Page', 'InitialPage', 'ExitPage'].includes(by) ? { doPathCleaning: true } : {};
  return { kind: 'WebStatsTableQuery', breakdownBy: by, ...webBase(dateRange), limit, ...(spec?.bounce ? { includeBounceRate: true } : {}), ...cleaning };
}

/** The cases: the overview over 7 and 30 days, each table over 7 days. */
export function webCases({ db, team, nowMs }) {
  const cases = [];
  for (const days of [7, 30]) {
    const { dateRange, params } = webPeriods(nowMs, days);
    cases.push({
      id: `web-overview-${days}d`,
      label: `Web: overview, ${days} days compared with the ${days} before`,
      hand: { sql: overviewSql(db), params: { team, ...params }, read: overviewRows, options: HAND_OPTIONS },
      hoglet: {
        query: { kind: 'WebOverviewQuery', ...webBase(dateRange) },
        read: (body) => body.results.map((item) => [item.key, item.value, item.previous]),
        timings: statementMs,
      },
    });
  }
  const { dateRange, params } = webPeriods(nowMs, 7);
  for (const [by, spec] of Object.entries(breakdowns())) {
    cases.push({
      id: `web-stats-${by}`,
      label: `Web: ${by}${spec.bounce ? ' with bounce rate' : ''}, 7 days compared`,
      hand: { sql: statsSql(db, by, spec), params: { team, ...params }, read: statsRows(Boolean(spec.bounce)), options: HAND_OPTIONS },
      hoglet: {
        query: statsQuery(by, dateRange),
        read: (body) => body.results.map((row) => row.slice(0, -1).map((cell) => (Array.isArray(cell) ? cell.map((v) => (v === null ? null : Number(v))) : cell))),
        timings: statementMs,
      },
    });
  }
  return cases;
}
