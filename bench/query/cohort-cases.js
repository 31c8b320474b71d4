// Cohort cases of the query benchmark (issue 19): a trend filtered by a behavioural cohort and
// broken down by two cohorts, and a cohort of most persons evaluated (counted) through HogQL, each
// against hand-written ClickHouse SQL for the same answer. The cohorts are made through the API
// (makeCohorts) before the cases are built.
import { readBreakdownRows, readTrendResponse, resolvedEvents } from './handwritten.js';

/** The cohorts the cases use, created through Hoglet's API; their ids by name. */
export const COHORT_DEFINITIONS = {
  buyers: { type: 'behavioral', key: 'purchase', value: 'performed_event', event_type: 'events', time_value: 30, time_interval: 'day' },
  pro: { type: 'person', key: 'plan', value: 'pro', operator: 'exact' },
  enterprise: { type: 'person', key: 'plan', value: 'enterprise', operator: 'exact' },
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

/** Live persons with the given plan, as hand-written SQL reads them. */
const personsWithPlan = (db, plan) => `SELECT id FROM ${db}.persons WHERE team_id = {team:UInt64}
  GROUP BY id HAVING argMax(is_deleted, version) = 0 AND JSONExtractString(argMax(properties, version), 'plan') = '${plan}'`;

/** Persons who did `event` from the start of the day 30 days ago (the trend's own range). */
const didInRange = (db, event) => `SELECT person_id FROM (${resolvedEvents(db, 'e.event', `e.event = '${event}'`)})`;

function cohortTrendSql(db) {
  return `SELECT day, breakdown_value, count() AS total, count(DISTINCT person_id) AS users
    FROM (
      SELECT toDate(timestamp) AS day, person_id,
        arrayJoin(arrayFilter(v -> v != '', [
          if(person_id IN (${personsWithPlan(db, 'pro')}), {pro:String}, ''),
          if(person_id IN (${personsWithPlan(db, 'enterprise')}), {enterprise:String}, '')])) AS breakdown_value
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

export function cohortCases({ db, team, range, cohorts }) {
  const base = { team, from: range.from, to: range.to };
  return [
    {
      id: 'cohort-trend',
      label: '30-day daily trend of `$pageview` (total, unique users) of persons who purchased in the last 30 days, broken down by two cohorts (plan pro, plan enterprise)',
      hand: {
        sql: cohortTrendSql(db),
        params: { ...base, pro: String(cohorts.pro), enterprise: String(cohorts.enterprise) },
        read: (rows) => readBreakdownRows(rows, range),
      },
      hoglet: {
        query: {
          kind: 'TrendsQuery',
          series: [{ kind: 'EventsNode', event: '$pageview', math: 'total' }, { kind: 'EventsNode', event: '$pageview', math: 'dau' }],
          dateRange: { date_from: '-30d' },
          interval: 'day',
          properties: [{ type: 'cohort', key: 'id', value: cohorts.buyers }],
          breakdownFilter: { breakdown_type: 'cohort', breakdown: [cohorts.pro, cohorts.enterprise] },
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
