// Cohort cases of the query benchmark (issue 19): a trend filtered by a behavioural cohort and
// broken down by two cohorts, and a cohort of most persons evaluated (counted) through HogQL, each
// against hand-written ClickHouse SQL for the same answer. The cohorts are made through the API
// (makeCohorts) before the cases are built.
import { readBreakdownRows, readTrendResponse, resolvedEvents } from './handwritten.js';

/**
 * The cohorts the cases use, created through Hoglet's API; their ids by name. Behavioural, so they
 * hold persons on the live (/batch/-loaded) data set too, whose persons carry no properties.
 */
export const COHORT_DEFINITIONS = {
  buyers: { type: 'behavioral', key: 'purchase', value: 'performed_event', event_type: 'events', time_value: 30, time_interval: 'day' },
  signedUp: { type: 'behavioral', key: 'signed_up', value: 'performed_event', event_type: 'events', time_value: 90, time_interval: 'day' },
  power: { type: 'behavioral', key: 'feature_used', value: 'performed_event_multiple', event_type: 'events', time_value: 30, time_interval: 'day', operator: 'gte', operator_value: 5 },
};
const MOST_PERSONS = {
  type: 'OR',
  values: [
    { type: 'person', key: 'plan', value: 'free', operator: 'exact' },
    { type: 'behavioral', key: '$pageview', value: 'performed_event', event_type: 'events', time_value: 30, time_interval: 'day' },
  ],
};

export async function makeCohorts(post) {
  const ids = {};
  for (const [name, condition] of Object.entries(COHORT_DEFINITIONS)) {
    ids[name] = (await post({ name, filters: { properties: { type: 'AND', values: [condition] } } })).id;
  }
  ids.most = (await post({ name: 'most persons', filters: { properties: MOST_PERSONS } })).id;
  return ids;
}

/** Persons who did `signed_up` from the start of the day 90 days ago (Hoglet's day-aligned window). */
const signedUp = (db) => `SELECT person_id FROM (${resolvedEvents(db, 'e.event', "e.event = 'signed_up'", { from: "{signed_from:DateTime64(6, 'UTC')}", to: "{to:DateTime64(6, 'UTC')}" })})`;

/** Persons with at least 5 `feature_used` in the exact last 30 days (performed_event_multiple). */
const powerUsers = (db) => `SELECT person_id FROM (${resolvedEvents(db, 'e.event', "e.event = 'feature_used'", { from: 'now64(6) - INTERVAL 30 DAY', to: 'now64(6) + INTERVAL 5 SECOND' })})
  GROUP BY person_id HAVING count() >= 5`;

/** Persons who did `event` from the start of the day 30 days ago (the trend's own range). */
const didInRange = (db, event) => `SELECT person_id FROM (${resolvedEvents(db, 'e.event', `e.event = '${event}'`)})`;

function cohortTrendSql(db) {
  return `SELECT day, breakdown_value, count() AS total, count(DISTINCT person_id) AS users
    FROM (
      SELECT toDate(timestamp) AS day, person_id,
        arrayJoin(arrayFilter(v -> v != '', [
          if(person_id IN (${signedUp(db)}), {signed:String}, ''),
          if(person_id IN (${powerUsers(db)}), {power:String}, '')])) AS breakdown_value
      FROM (${resolvedEvents(db, 'e.timestamp', "e.event = '$pageview'")})
      WHERE person_id IN (${didInRange(db, 'purchase')})
    )
    GROUP BY day, breakdown_value`;
}

function mostPersonsSql(db) {
  return `SELECT count() AS persons FROM (
      SELECT id, argMax(properties, version) AS props FROM ${db}.persons WHERE team_id = {team:UInt64}
      GROUP BY id HAVING argMax(is_deleted, version) = 0
    )
    WHERE JSONExtractString(props, 'plan') = 'free' OR id IN (${didInRange(db, '$pageview')})`;
}

const DAY_MS = 86_400_000;

export function cohortCases({ db, team, range, nowMs, cohorts }) {
  const base = { team, from: range.from, to: range.to };
  const signedFrom = `${new Date(Math.floor(nowMs / DAY_MS) * DAY_MS - 90 * DAY_MS).toISOString().slice(0, 10)} 00:00:00.000000`;
  return [
    {
      id: 'cohort-trend',
      label: '30-day daily trend of `$pageview` (total, unique users) of persons who purchased in the last 30 days, broken down by two cohorts (signed up in 90 days; `feature_used` 5+ times in 30 days)',
      hand: {
        sql: cohortTrendSql(db),
        params: { ...base, signed_from: signedFrom, signed: String(cohorts.signedUp), power: String(cohorts.power) },
        read: (rows) => readBreakdownRows(rows, range),
      },
      hoglet: {
        query: {
          kind: 'TrendsQuery',
          series: [{ kind: 'EventsNode', event: '$pageview', math: 'total' }, { kind: 'EventsNode', event: '$pageview', math: 'dau' }],
          dateRange: { date_from: '-30d' },
          interval: 'day',
          properties: [{ type: 'cohort', key: 'id', value: cohorts.buyers }],
          breakdownFilter: { breakdown_type: 'cohort', breakdown: [cohorts.signedUp, cohorts.power] },
        },
        read: (body) => readTrendResponse(body, range, { breakdown: true }),
      },
    },
    {
      id: 'cohort-count',
      label: 'a cohort of most persons (plan free, or a `$pageview` in the last 30 days) evaluated: `select count() from persons where id in cohort N`',
      hand: { sql: mostPersonsSql(db), params: base, read: (rows) => ({ persons: Number(rows[0]?.persons ?? 0) }) },
      hoglet: {
        query: { kind: 'HogQLQuery', query: `select count() from persons where id in cohort ${cohorts.most}` },
        read: (body) => ({ persons: Number(body.results?.[0]?.[0] ?? 0) }),
      },
    },
  ];
}
