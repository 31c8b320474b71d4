// The benchmark cases: for each, the ClickHouse SQL a competent ClickHouse user would write by
// hand for the answer, the PostHog query Hoglet is asked for the same answer, and how both answers
// are read into one comparable shape.
//
// Definitions the two must share (Hoglet's answers are compared to these exactly):
//   - Time zone UTC. `date_from: "-30d"` with interval day is [start of the UTC day 30 days before
//     today, start of tomorrow): 31 days, today included; every event (funnel steps too) must lie
//     in that range.
//   - Persons are resolved through merges exactly as `eventsWithResolvedPersons`
//     (src/storage/events/person-overrides.ts): the override of the event's distinct_id (argMax by
//     version) if there is one, else the event's own person_id. Unique users (`math: "dau"`) are
//     the exact number of distinct resolved person ids per day (`count(DISTINCT ...)`).
//   - Breakdown by `$browser`: the event property read as a string (JSONExtractString); a missing
//     or empty value is the null bucket ("$$_posthog_breakdown_null_$$"). The top 25 values by total
//     count over the range (ties by value) keep their own series; the rest go to
//     "$$_posthog_breakdown_other_$$" (empty with this data: it has 9 values).
//   - Ordered funnels follow PostHog's aggregate_funnel UDF (funnel-udf/src/steps.rs) without
//     exclusions or breakdowns: a person's events of the steps, in time order, drive one entry per
//     step; a step-1 event (re)starts the entry of step 1 at its time; an event of step k > 1 moves
//     the entry of step k-1 on to step k when it is at most the window after that entry's start
//     (inclusive: `t - start <= 14 days`, in microseconds) and the entry of step k does not
//     already have the same start. A person counts in step k when some entry reached step k.
//     The conversion times are those of the first entry to reach the person's furthest step:
//     average_conversion_time of step k is the mean, over persons who reached step k with
//     t_k > t_(k-1), of t_k - t_(k-1) in seconds (microsecond precision, not rounded); null for
//     step 1 or when no person qualifies. (The data set has no two step events of one person at
//     the same time, so PostHog's tie rules are not exercised.)
import { hogqlCases } from './hogql-cases.js';
export const NULL_BREAKDOWN = '$$_posthog_breakdown_null_$$';
export const OTHER_BREAKDOWN = '$$_posthog_breakdown_other_$$';
export const BREAKDOWN_LIMIT = 25;
export const WINDOW_DAYS = 14;
const WINDOW_US = WINDOW_DAYS * 86_400_000_000;

const DAY_MS = 86_400_000;
const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

/** The date range of `-30d` on the UTC day of `nowMs`: bound parameters and the list of days. */
export function dateRange(nowMs) {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const fromMs = today - 30 * DAY_MS;
  const toMs = today + DAY_MS;
  const days = [];
  for (let day = fromMs; day < toMs; day += DAY_MS) days.push(isoDay(day));
  return { from: `${isoDay(fromMs)} 00:00:00.000000`, to: `${isoDay(toMs)} 00:00:00.000000`, days };
}

const FROM = "{from:DateTime64(6, 'UTC')}";
const TO = "{to:DateTime64(6, 'UTC')}";

/** The events of the project with person_id resolved through merges, filtered by `where`, in [from, to). */
export function resolvedEvents(db, columns, where, bounds = { from: FROM, to: TO }) {
  return `SELECT ${columns}, if(notEmpty(o.distinct_id), o.person_id, e.person_id) AS person_id
    FROM ${db}.events AS e
    LEFT JOIN (
      SELECT distinct_id, argMax(person_id, version) AS person_id
      FROM ${db}.person_distinct_id_overrides
      WHERE team_id = {team:UInt64}
      GROUP BY distinct_id
    ) AS o ON e.distinct_id = o.distinct_id
    WHERE e.team_id = {team:UInt64} AND ${where}
      AND e.timestamp >= ${bounds.from} AND e.timestamp < ${bounds.to}`;
}

// ---------------------------------------------------------------------------------------------
// Trends.

function trendSql(db) {
  return `SELECT day, count() AS total, count(DISTINCT person_id) AS users
    FROM (${resolvedEvents(db, 'toDate(e.timestamp) AS day', 'e.event = {event:String}')})
    GROUP BY day
    ORDER BY day WITH FILL FROM toDate({from:DateTime64(6, 'UTC')}) TO toDate({to:DateTime64(6, 'UTC')}) STEP 1`;
}

/** One scan: per (day, value) counts and exact uniq states, ranked by value total, merged into buckets. */
function trendBreakdownSql(db) {
  return `SELECT day, if(value_rank <= {limit:UInt32}, value, {other:String}) AS breakdown_value,
        sum(total) AS total, uniqExactMerge(users) AS users
    FROM (
      SELECT day, value, total, users,
        dense_rank() OVER (ORDER BY value_total DESC, value ASC) AS value_rank
      FROM (
        SELECT day, value, total, users, sum(total) OVER (PARTITION BY value) AS value_total
        FROM (
          SELECT day, value, count() AS total, uniqExactState(person_id) AS users
          FROM (${resolvedEvents(db, "toDate(e.timestamp) AS day, JSONExtractString(e.properties, '$browser') AS value", 'e.event = {event:String}')})
          GROUP BY day, value
        )
      )
    )
    GROUP BY day, breakdown_value`;
}

const trendSeries = [
  { kind: 'EventsNode', event: '$pageview', math: 'total' },
  { kind: 'EventsNode', event: '$pageview', math: 'dau' },
];

/** Hand-written rows of trendSql -> { days, series: { total: [...], dau: [...] } }. */
function readTrendRows(rows, range) {
  const byDay = new Map(rows.map((row) => [String(row.day), row]));
  return {
    days: range.days,
    series: {
      total: range.days.map((day) => Number(byDay.get(day)?.total ?? 0)),
      dau: range.days.map((day) => Number(byDay.get(day)?.users ?? 0)),
    },
  };
}

const breakdownKey = (value) => {
  if (value === null || value === undefined || value === '' || value === NULL_BREAKDOWN) return 'null';
  if (value === OTHER_BREAKDOWN) return 'other';
  return String(value);
};

export function readBreakdownRows(rows, range) {
  const dayIndex = new Map(range.days.map((day, i) => [day, i]));
  const series = {};
  for (const row of rows) {
    const value = breakdownKey(row.breakdown_value);
    for (const [math, column] of [['total', 'total'], ['dau', 'users']]) {
      const key = `${math} | ${value}`;
      series[key] ??= range.days.map(() => 0);
      series[key][dayIndex.get(String(row.day))] = Number(row[column]);
    }
  }
  return { days: range.days, series: sortKeys(series) };
}

function sortKeys(object) {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Which series a Hoglet trend result is: by its math (the two series differ only there). */
function seriesMath(result, index) {
  const math = result.action?.math ?? result.math;
  if (math === 'total' || math === 'dau') return math;
  const order = result.action?.order ?? result.order ?? index;
  return trendSeries[order]?.math ?? `series ${order}`;
}

/** Hoglet's TrendsQuery answer -> the same shape as the hand-written one. */
export function readTrendResponse(body, range, { breakdown }) {
  const results = body?.results;
  if (!Array.isArray(results)) throw new Error(`no results array in ${JSON.stringify(body).slice(0, 300)}`);
  const series = {};
  let days = null;
  results.forEach((result, index) => {
    const math = seriesMath(result, index);
    const key = breakdown ? `${math} | ${breakdownKey(result.breakdown_value)}` : math;
    series[key] = (result.data ?? []).map(Number);
    if (Array.isArray(result.days)) days = result.days.map((day) => String(day).slice(0, 10));
  });
  return { days: days ?? range.days, series: breakdown ? sortKeys(series) : series };
}

// ---------------------------------------------------------------------------------------------
// Funnels.

/**
 * The UDF's walk as an arrayFold over each person's (time µs, step) pairs in time order. State:
 * (entry start per step, entry timings per step, furthest step, timings of the first entry to reach
 * it). Two cheapenings that do not change the answer: a pair is packed in one Int64
 * (time * 32 + step: sorting it sorts by time, then step), and a step-1 event directly followed by
 * another step-1 event is dropped before the walk (the later one restarts the entry of step 1
 * before anything reads it; only the furthest-step timings of a person stuck at step 1 change, and
 * those are not reported).
 */
function funnelWalkColumns(steps) {
  const n = steps;
  const start = `if(x.2 = 1, x.1, acc.1[x.2 - 1])`;
  const timings = `arrayPushBack(if(x.2 = 1, CAST([], 'Array(Int64)'), acc.2[x.2 - 1]), x.1)`;
  const moves = `(x.2 = 1 OR (acc.1[x.2 - 1] != 0 AND x.1 - acc.1[x.2 - 1] <= ${WINDOW_US})) AND acc.1[x.2] != ${start}`;
  return `arraySort(groupArray(toUnixTimestamp64Micro(timestamp) * 32 + indexOf({steps:Array(String)}, event))) AS packed,
      arrayMap(v -> (intDiv(v, 32), toUInt8(v % 32)),
        arrayFilter((v, next) -> v % 32 != 1 OR next % 32 != 1, packed, arrayPushBack(arrayPopFront(packed), 0))) AS walk,
      arrayFold((acc, x) -> if(${moves},
        (arrayMap((v, i) -> if(i = x.2, ${start}, v), acc.1, arrayEnumerate(acc.1)),
         arrayMap((v, i) -> if(i = x.2, ${timings}, v), acc.2, arrayEnumerate(acc.2)),
         if(x.2 > acc.3, x.2, acc.3),
         if(x.2 > acc.3, ${timings}, acc.4)),
        acc),
      walk,
      (arrayWithConstant(${n}, toInt64(0)), arrayWithConstant(${n}, CAST([], 'Array(Int64)')), toUInt8(0), CAST([], 'Array(Int64)'))) AS state`;
}

/** Counts per step and average conversion times, from the fold (PostHog's UDF semantics). */
function funnelFoldSql(db, steps) {
  const counts = Array.from({ length: steps }, (_, i) => `countIf(max_step >= ${i + 1}) AS step_${i + 1}`);
  const times = Array.from(
    { length: steps - 1 },
    (_, i) => `avgIf((t[${i + 2}] - t[${i + 1}]) / 1e6, max_step >= ${i + 2} AND t[${i + 2}] > t[${i + 1}]) AS time_${i + 2}`,
  );
  return `SELECT ${[...counts, ...times].join(', ')}
    FROM (
      SELECT person_id, ${funnelWalkColumns(steps)}, state.3 AS max_step, state.4 AS t
      FROM (${resolvedEvents(db, 'e.timestamp AS timestamp, e.event AS event', 'e.event IN {steps:Array(String)}')})
      GROUP BY person_id
    )`;
}

/** Counts per step only, with ClickHouse's windowFunnel (same furthest step as the UDF walk). */
function funnelWindowSql(db, steps) {
  const conditions = Array.from({ length: steps }, (_, i) => `event = {steps:Array(String)}[${i + 1}]`).join(', ');
  return `SELECT level, count() AS persons
    FROM (
      SELECT person_id, windowFunnel(${WINDOW_US})(toUInt64(toUnixTimestamp64Micro(timestamp)), ${conditions}) AS level
      FROM (${resolvedEvents(db, 'e.timestamp AS timestamp, e.event AS event', 'e.event IN {steps:Array(String)}')})
      GROUP BY person_id
    )
    WHERE level > 0
    GROUP BY level`;
}

function readFoldRow([row], steps, { withTimes }) {
  const out = [];
  for (let k = 1; k <= steps; k++) {
    const time = k === 1 ? null : Number(row[`time_${k}`]);
    out.push(withTimes ? { count: Number(row[`step_${k}`]), average_conversion_time: Number.isFinite(time) ? time : null } : { count: Number(row[`step_${k}`]) });
  }
  return { steps: out };
}

function readWindowRows(rows, steps) {
  const atLevel = new Map(rows.map((row) => [Number(row.level), Number(row.persons)]));
  const out = [];
  for (let k = 1; k <= steps; k++) {
    let count = 0;
    for (let level = k; level <= steps; level++) count += atLevel.get(level) ?? 0;
    out.push({ count });
  }
  return { steps: out };
}

function readFunnelResponse(body, steps, { withTimes }) {
  let results = body?.results;
  if (!Array.isArray(results)) throw new Error(`no results array in ${JSON.stringify(body).slice(0, 300)}`);
  if (Array.isArray(results[0])) throw new Error('got a breakdown funnel (nested results) for a funnel without breakdown');
  results = [...results].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
  if (results.length !== steps) throw new Error(`expected ${steps} steps, got ${results.length}`);
  return {
    steps: results.map((step, i) =>
      withTimes
        ? { count: Number(step.count), average_conversion_time: i === 0 || step.average_conversion_time === null || step.average_conversion_time === undefined ? null : Number(step.average_conversion_time) }
        : { count: Number(step.count) },
    ),
  };
}

function funnelQuery(events) {
  return {
    kind: 'FunnelsQuery',
    series: events.map((event) => ({ kind: 'EventsNode', event })),
    dateRange: { date_from: '-30d' },
    funnelsFilter: { funnelWindowInterval: WINDOW_DAYS, funnelWindowIntervalUnit: 'day' },
  };
}

export const stepEvents = (n) => Array.from({ length: n }, (_, i) => `step_${i + 1}`);

// ---------------------------------------------------------------------------------------------
// Retention: recurring retention of `$pageview` (start and return), cohorts by UTC day or by week
// (weeks start on Sunday, the project's default). A person counts in cohort c at offset k when
// they have a `$pageview` in interval c and in interval c + k (offset 0: in c).

const RETENTION_UNITS = { Day: { days: 1 }, Week: { days: 7 } };

/** The retention range ending with today's interval: `intervals` cohorts, [from, to) in UTC. */
export function retentionRange(nowMs, period, intervals) {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  const unitDays = RETENTION_UNITS[period].days;
  // Week: back to Sunday (1970-01-01 was a Thursday: day 0 is 4 days after a Sunday).
  const intervalStart = period === 'Week' ? today - (((today / DAY_MS + 4) % 7) * DAY_MS) : today;
  const toMs = intervalStart + unitDays * DAY_MS;
  const fromMs = toMs - intervals * unitDays * DAY_MS;
  const cohorts = Array.from({ length: intervals }, (_, i) => isoDay(fromMs + i * unitDays * DAY_MS));
  return { from: `${isoDay(fromMs)} 00:00:00.000000`, to: `${isoDay(toMs)} 00:00:00.000000`, cohorts, unitDays };
}

/** Per person the intervals (as first days) with a `$pageview`; each start x each later active interval. */
function retentionSql(db, unitDays) {
  const interval = unitDays === 7 ? 'toStartOfWeek(e.timestamp, 0)' : 'toDate(e.timestamp)';
  return `SELECT start, intDiv(dateDiff('day', start, active), ${unitDays}) AS k, count() AS actors
    FROM (
      SELECT person_id, groupUniqArray(interval_start) AS intervals
      FROM (${resolvedEvents(db, `${interval} AS interval_start`, 'e.event = {event:String}')})
      GROUP BY person_id
    )
    ARRAY JOIN intervals AS start
    ARRAY JOIN arrayFilter(d -> d >= start AND dateDiff('day', start, d) < {span:UInt32}, intervals) AS active
    GROUP BY start, k`;
}

function readRetentionRows(rows, range, intervals) {
  const cohortIndex = new Map(range.cohorts.map((day, i) => [day, i]));
  const matrix = range.cohorts.map(() => new Array(intervals).fill(0));
  for (const row of rows) {
    const i = cohortIndex.get(String(row.start));
    if (i !== undefined && Number(row.k) < intervals) matrix[i][Number(row.k)] = Number(row.actors);
  }
  return { retention: matrix };
}

function readRetentionResponse(body, range) {
  const results = body.results;
  return {
    retention: results.map((row, i) => {
      if (row.date.slice(0, 10) !== range.cohorts[i]) throw new Error(`cohort ${i} starts ${row.date}, not ${range.cohorts[i]}`);
      return row.values.map((v) => v.count);
    }),
  };
}

function retentionCase(id, label, period, intervals, nowMs, db, team) {
  const range = retentionRange(nowMs, period, intervals);
  const pageview = { id: '$pageview', type: 'events' };
  return {
    id,
    label,
    hand: {
      sql: retentionSql(db, range.unitDays),
      params: { team, from: range.from, to: range.to, event: '$pageview', span: intervals * range.unitDays },
      read: (rows) => readRetentionRows(rows, range, intervals),
    },
    hoglet: {
      query: { kind: 'RetentionQuery', retentionFilter: { period, totalIntervals: intervals, targetEntity: pageview, returningEntity: pageview } },
      read: (body) => readRetentionResponse(body, range),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Stickiness and lifecycle of `$pageview` over the trend's 31 days (`-30d`, by UTC day).
//   Stickiness: per person the number of days with a `$pageview`, then persons per number.
//   Lifecycle: per person the sorted days with a `$pageview` (from the day before the range to the
//   day after; events sent with `$process_person_profile: false` left out, as PostHog leaves them
//   out, tested on the raw JSON only when the text names the flag) and the day the person was
//   created (persons.created_at, latest version); an active day is new when it is the first and
//   the creation day, returning when the day before was active, else resurrecting; an active day
//   not followed by one makes the next day dormant (counted negative). Days inside the range only.

function stickinessSql(db) {
  return `SELECT active_days, count() AS actors
    FROM (
      SELECT person_id, uniqExact(toDate(e.timestamp)) AS active_days
      FROM (${resolvedEvents(db, 'e.timestamp', 'e.event = {event:String}')}) AS e
      GROUP BY person_id
    )
    GROUP BY active_days`;
}

function readStickinessRows(rows, days) {
  const data = new Array(days).fill(0);
  for (const row of rows) data[Number(row.active_days) - 1] = Number(row.actors);
  return { stickiness: data };
}

function lifecycleSql(db) {
  return `SELECT toString(day) AS day_text, status, count() AS actors
    FROM (
      SELECT tupleElement(entry, 1) AS day, tupleElement(entry, 2) AS status
      FROM (
        SELECT days, created,
          arrayJoin(arrayConcat(
            arrayMap((d, i) -> (d, multiIf(i = 1 AND d = created, 'new', i > 1 AND days[i - 1] = d - 1, 'returning', 'resurrecting')), days, arrayEnumerate(days)),
            arrayMap(d -> (d + 1, 'dormant'), arrayFilter((d, i) -> i = length(days) OR days[i + 1] != d + 1, days, arrayEnumerate(days)))
          )) AS entry
        FROM (
          SELECT ev.person_id AS person_id, arraySort(groupUniqArray(toDate(ev.timestamp))) AS days, min(toDate(p.created_at)) AS created
          FROM (${resolvedEvents(db, 'e.timestamp', `e.event = {event:String}
              AND (position(e.properties, '$process_person_profile') = 0 OR JSONExtractRaw(e.properties, '$process_person_profile') NOT IN ('false', '"false"'))`,
            { from: `${FROM} - INTERVAL 1 DAY`, to: `${TO} + INTERVAL 1 DAY` })}) AS ev
          LEFT JOIN (
            SELECT id, argMax(created_at, version) AS created_at FROM ${db}.persons WHERE team_id = {team:UInt64} GROUP BY id
          ) AS p ON p.id = ev.person_id
          GROUP BY ev.person_id
        )
      )
    )
    WHERE day >= toDate({from:DateTime64(6, 'UTC')}) AND day < toDate({to:DateTime64(6, 'UTC')})
    GROUP BY day, status`;
}

function readLifecycleRows(rows, range) {
  const index = new Map(range.days.map((day, i) => [day, i]));
  const out = {};
  for (const status of ['new', 'returning', 'resurrecting', 'dormant']) out[status] = range.days.map(() => 0);
  for (const row of rows) {
    const i = index.get(row.day_text);
    if (i !== undefined) out[row.status][i] = (row.status === 'dormant' ? -1 : 1) * Number(row.actors);
  }
  return { lifecycle: out };
}

function readLifecycleResponse(body, range) {
  const out = {};
  for (const item of body.results) {
    if (item.days.join() !== range.days.join()) throw new Error(`lifecycle days ${item.days[0]}..${item.days.at(-1)} are not the range's`);
    out[item.status] = item.data;
  }
  return { lifecycle: out };
}

// ---------------------------------------------------------------------------------------------
// Funnel correlation of the 3-step funnel: its entrants from the same walk as above (converted =
// reached step 3; window = after step 1 and before step 3, or before step 1 + 14 days for those who
// dropped off); events: every other event name an entrant did strictly inside their window;
// properties: `$initial_browser::<value>` of each entrant's person (latest version). The odds ratio
// with a prior of one, support of at least min(25, 2 % of entrants), top 10 each way, in JS.

const CORRELATION_STEPS = ['$pageview', 'signed_up', 'purchase'];

function entrantsSql(db) {
  return `SELECT person_id, max_step >= 3 AS converted, t[1] AS first_us, if(max_step >= 3, t[3], t[1] + ${WINDOW_US}) AS end_us
    FROM (
      SELECT person_id, ${funnelWalkColumns(3)}, state.3 AS max_step, state.4 AS t
      FROM (${resolvedEvents(db, 'e.timestamp AS timestamp, e.event AS event', 'e.event IN {steps:Array(String)}')})
      GROUP BY person_id
    )
    WHERE max_step >= 1`;
}

function correlationSql(db, type) {
  const candidates = type === 'events'
    ? `SELECT ev.event AS candidate, uniqExactIf(en.person_id, en.converted) AS s, uniqExactIf(en.person_id, NOT en.converted) AS f
       FROM (${resolvedEvents(db, 'e.timestamp AS timestamp, e.event AS event', 'e.event NOT IN {steps:Array(String)}')}) AS ev
       INNER JOIN entrants AS en ON en.person_id = ev.person_id
       WHERE toUnixTimestamp64Micro(ev.timestamp) > en.first_us AND toUnixTimestamp64Micro(ev.timestamp) < en.end_us
       GROUP BY candidate`
    : `SELECT concat('$initial_browser::', JSONExtractString(p.properties, '$initial_browser')) AS candidate,
         uniqExactIf(en.person_id, en.converted) AS s, uniqExactIf(en.person_id, NOT en.converted) AS f
       FROM entrants AS en
       LEFT JOIN (SELECT id, argMax(properties, version) AS properties FROM ${db}.persons WHERE team_id = {team:UInt64} GROUP BY id) AS p ON p.id = en.person_id
       GROUP BY candidate`;
  return `WITH entrants AS (${entrantsSql(db)})
    SELECT candidate, s, f, (SELECT countIf(converted) FROM entrants) AS total_s, (SELECT countIf(NOT converted) FROM entrants) AS total_f
    FROM (${candidates})`;
}

/** PostHog's rules on the candidate counts (written independently of Hoglet's). */
function readCorrelationRows(rows) {
  const S = Number(rows[0]?.total_s ?? 0);
  const F = Number(rows[0]?.total_f ?? 0);
  if (S === 0 || F === 0) return { correlation: { events: [], skewed: true } };
  const support = Math.min(25, 0.02 * (S + F));
  const scored = rows
    .map((r) => ({ event: r.candidate, s: Number(r.s), f: Number(r.f) }))
    .filter((c) => c.s + c.f >= support)
    .map((c) => ({ ...c, odds: ((c.s + 1) * (F - c.f + 1)) / ((S - c.s + 1) * (c.f + 1)) }));
  const up = scored.filter((c) => c.odds > 1).sort((a, b) => b.odds - a.odds || (a.event < b.event ? -1 : 1)).slice(0, 10);
  const down = scored.filter((c) => c.odds <= 1).sort((a, b) => a.odds - b.odds || (a.event < b.event ? -1 : 1)).slice(0, 10);
  const item = (c) => ({ event: c.event, success_count: c.s, failure_count: c.f, odds_ratio: c.odds });
  return { correlation: { events: [...up, ...down].map(item), skewed: S / F > 10 || F / S > 10 } };
}

function readCorrelationResponse(body) {
  const { events, skewed } = body.results;
  return { correlation: { events: events.map((e) => ({ event: e.event.event, success_count: e.success_count, failure_count: e.failure_count, odds_ratio: e.odds_ratio })), skewed } };
}

// ---------------------------------------------------------------------------------------------
// Paths of `$pageview` URLs over 8 UTC days (`-7d`): per person the URLs (one trailing slash
// dropped) in time order, split into sessions at gaps of 30 minutes or more; in a session a URL
// equal to the next one is dropped; the first 5 (from the start point's first occurrence when
// there is one); edges between consecutive positions "<i>_<url>", counted with the average
// milliseconds between them; the 50 heaviest (value desc, source, target), then only those
// reachable from a first position.

const PATHS_STEP_LIMIT = 5;
const PATHS_EDGE_LIMIT = 50;
export const PATHS_START = 'https://example.com/pricing';

function pathsSql(db, withStart) {
  const url = "replaceRegexpOne(JSONExtractString(e.properties, '$current_url'), '^(.+)/$', '\\\\1')";
  const limited = withStart
    ? 'if(indexOf(collapsed.2, {start:String}) > 0, arraySlice(collapsed, indexOf(collapsed.2, {start:String}), {steps:UInt32}), [])'
    : 'arraySlice(collapsed, 1, {steps:UInt32})';
  return `SELECT source, target, count() AS value, avg(gap) AS average_conversion_time
    FROM (
      SELECT arrayJoin(arrayMap(i -> (concat(toString(i), '_', path[i].2), concat(toString(i + 1), '_', path[i + 1].2), path[i + 1].1 - path[i].1),
        range(1, toInt64(length(path))))) AS edge, edge.1 AS source, edge.2 AS target, edge.3 AS gap
      FROM (
        SELECT ${limited} AS path
        FROM (
          SELECT arrayFilter((x, following) -> x.2 != following, session, arrayPushBack(arrayPopFront(session.2), '')) AS collapsed
          FROM (
            SELECT arrayJoin(arraySplit((x, gap) -> gap >= 1800000, events, arrayDifference(events.1))) AS session
            FROM (
              SELECT person_id, arraySort(groupArray((toUnixTimestamp64Milli(e.timestamp), url))) AS events
              FROM (${resolvedEvents(db, `e.timestamp, ${url} AS url`, "e.event = '$pageview'")}) AS e
              GROUP BY person_id
            )
          )
        )
      )
      WHERE length(path) > 1
    )
    GROUP BY source, target
    ORDER BY value DESC, source, target
    LIMIT {edges:UInt32}`;
}

/** The ordered edges, then only those reachable from a first position (written independently of Hoglet's). */
function readPathRows(rows) {
  const edges = rows.map((r) => ({ source: r.source, target: r.target, value: Number(r.value), average_conversion_time: Number(r.average_conversion_time) }));
  const reachable = new Set(edges.filter((e) => e.source.startsWith('1_')).map((e) => e.source));
  let grew = true;
  while (grew) {
    grew = false;
    for (const e of edges) if (reachable.has(e.source) && !reachable.has(e.target)) { reachable.add(e.target); grew = true; }
  }
  return { edges: edges.filter((e) => reachable.has(e.source)) };
}

/** The range of `-7d` on the UTC day of `nowMs`. */
function weekRange(nowMs) {
  const today = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return { from: `${isoDay(today - 7 * DAY_MS)} 00:00:00.000000`, to: `${isoDay(today + DAY_MS)} 00:00:00.000000` };
}

// ---------------------------------------------------------------------------------------------
// The cases.

/**
 * Every case: `hand` (sql, params, read(rows)), `hoglet` (query body, read(json)) and, for the
 * funnels, `check`: a second, untimed reference query that must agree with `hand`.
 */
export function benchCases({ db, team, range, nowMs = Date.now() }) {
  const base = { team, from: range.from, to: range.to };
  const trend = {
    id: 'trend',
    label: '30-day daily trend of `$pageview`: total and unique users',
    hand: { sql: trendSql(db), params: { ...base, event: '$pageview' }, read: (rows) => readTrendRows(rows, range) },
    hoglet: {
      query: { kind: 'TrendsQuery', series: trendSeries, dateRange: { date_from: '-30d' }, interval: 'day' },
      read: (body) => readTrendResponse(body, range, { breakdown: false }),
    },
  };
  const breakdown = {
    id: 'trend-breakdown',
    label: 'the same, broken down by `$browser` (top 25 + other)',
    hand: {
      sql: trendBreakdownSql(db),
      params: { ...base, event: '$pageview', limit: BREAKDOWN_LIMIT, other: OTHER_BREAKDOWN },
      read: (rows) => readBreakdownRows(rows, range),
    },
    hoglet: {
      query: {
        ...trend.hoglet.query,
        breakdownFilter: { breakdown: '$browser', breakdown_type: 'event' },
      },
      read: (body) => readTrendResponse(body, range, { breakdown: true }),
    },
  };
  const threeSteps = ['$pageview', 'signed_up', 'purchase'];
  const funnel3 = {
    id: 'funnel-3',
    label: '3-step funnel `$pageview` → `signed_up` → `purchase`, 14-day window: counts and average conversion times',
    steps: 3,
    hand: {
      sql: funnelFoldSql(db, 3),
      params: { ...base, steps: threeSteps },
      read: (rows) => readFoldRow(rows, 3, { withTimes: true }),
    },
    check: {
      what: 'windowFunnel counts',
      sql: funnelWindowSql(db, 3),
      params: { ...base, steps: threeSteps },
      read: (rows) => readWindowRows(rows, 3),
      project: (answer) => ({ steps: answer.steps.map(({ count }) => ({ count })) }),
    },
    hoglet: { query: funnelQuery(threeSteps), read: (body) => readFunnelResponse(body, 3, { withTimes: true }) },
  };
  // The same answer as Hoglet's: counts and average conversion times, from the fold; windowFunnel
  // (counts only, and much cheaper) checks the counts.
  const stepFunnels = [5, 10, 20].map((n) => ({
    id: `funnel-${n}`,
    label: `${n}-step funnel \`step_1\` → … → \`step_${n}\`, 14-day window: counts and average conversion times`,
    steps: n,
    hand: { sql: funnelFoldSql(db, n), params: { ...base, steps: stepEvents(n) }, read: (rows) => readFoldRow(rows, n, { withTimes: true }) },
    check: {
      what: 'windowFunnel counts',
      sql: funnelWindowSql(db, n),
      params: { ...base, steps: stepEvents(n) },
      read: (rows) => readWindowRows(rows, n),
      project: (answer) => ({ steps: answer.steps.map(({ count }) => ({ count })) }),
    },
    hoglet: { query: funnelQuery(stepEvents(n)), read: (body) => readFunnelResponse(body, n, { withTimes: true }) },
  }));
  const retention = [
    retentionCase('retention-11d', '11-day daily retention of `$pageview`', 'Day', 11, nowMs, db, team),
    retentionCase('retention-12w', '12-week weekly retention of `$pageview`', 'Week', 12, nowMs, db, team),
  ];
  const stickiness = {
    id: 'stickiness-30d',
    label: '30-day stickiness of `$pageview` (persons by days active)',
    hand: { sql: stickinessSql(db), params: { ...base, event: '$pageview' }, read: (rows) => readStickinessRows(rows, range.days.length) },
    hoglet: {
      query: { kind: 'StickinessQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '-30d' }, interval: 'day' },
      read: (body) => ({ stickiness: body.results[0].data }),
    },
  };
  const lifecycle = {
    id: 'lifecycle-30d',
    label: '30-day lifecycle of `$pageview` (new, returning, resurrecting, dormant per day)',
    hand: { sql: lifecycleSql(db), params: { ...base, event: '$pageview' }, read: (rows) => readLifecycleRows(rows, range) },
    hoglet: {
      query: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview' }], dateRange: { date_from: '-30d' }, interval: 'day' },
      read: (body) => readLifecycleResponse(body, range),
    },
  };
  const week = weekRange(nowMs);
  const pathsCase = (id, label, withStart) => ({
    id,
    label,
    hand: {
      sql: pathsSql(db, withStart),
      params: { team, from: week.from, to: week.to, steps: PATHS_STEP_LIMIT, edges: PATHS_EDGE_LIMIT, ...(withStart ? { start: PATHS_START } : {}) },
      read: readPathRows,
    },
    hoglet: {
      query: { kind: 'PathsQuery', dateRange: { date_from: '-7d' }, pathsFilter: { includeEventTypes: ['$pageview'], ...(withStart ? { startPoint: PATHS_START } : {}) } },
      read: (body) => ({ edges: body.results }),
    },
  });
  const paths = [
    pathsCase('paths-7d', '7-day paths of `$pageview` URLs (5 steps, 50 edges)', false),
    pathsCase('paths-7d-start', 'the same from a start point (`/pricing`)', true),
  ];
  const correlationCase = (id, label, type) => ({
    id,
    label,
    hand: { sql: correlationSql(db, type), params: { ...base, steps: CORRELATION_STEPS }, read: readCorrelationRows },
    hoglet: {
      query: {
        kind: 'FunnelCorrelationQuery',
        source: { kind: 'FunnelsActorsQuery', source: funnelQuery(CORRELATION_STEPS) },
        funnelCorrelationType: type,
        ...(type === 'properties' ? { funnelCorrelationNames: ['$initial_browser'] } : {}),
      },
      read: readCorrelationResponse,
    },
  });
  const correlation = [
    correlationCase('correlation-events', 'event correlation of the 3-step funnel', 'events'),
    correlationCase('correlation-properties', 'property correlation of the 3-step funnel on `$initial_browser`', 'properties'),
  ];
  return [trend, breakdown, funnel3, ...stepFunnels, ...retention, stickiness, lifecycle, ...paths, ...correlation, ...hogqlCases({ db, team, nowMs })];
}

// ---------------------------------------------------------------------------------------------
// Comparing answers.

const close = (a, b) => {
  if (a === b) return true;
  if (typeof a !== 'number' || typeof b !== 'number') return false;
  return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b));
};

/** Differences between two answers (exact for counts, 1e-6 relative for average times), at most `max`. */
export function differences(expected, actual, max = 8) {
  const out = [];
  const walk = (a, b, where) => {
    if (out.length >= max) return;
    if (Array.isArray(a) || Array.isArray(b)) {
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) {
        out.push(`${where}: expected ${JSON.stringify(a)?.slice(0, 200)}, got ${JSON.stringify(b)?.slice(0, 200)}`);
        return;
      }
      a.forEach((value, i) => walk(value, b[i], `${where}[${i}]`));
      return;
    }
    if (a && typeof a === 'object' && b && typeof b === 'object') {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (!(key in b)) out.push(`${where}.${key}: missing (expected ${JSON.stringify(a[key]).slice(0, 120)})`);
        else if (!(key in a)) out.push(`${where}.${key}: unexpected ${JSON.stringify(b[key]).slice(0, 120)}`);
        else walk(a[key], b[key], `${where}.${key}`);
        if (out.length >= max) return;
      }
      return;
    }
    if (!close(a, b)) out.push(`${where}: expected ${JSON.stringify(a)}, got ${JSON.stringify(b)}`);
  };
  walk(expected, actual, 'answer');
  return out;
}
