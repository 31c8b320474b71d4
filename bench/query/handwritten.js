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

/** The events of the project with person_id resolved through merges, filtered by `where`. */
function resolvedEvents(db, columns, where) {
  return `SELECT ${columns}, if(notEmpty(o.distinct_id), o.person_id, e.person_id) AS person_id
    FROM ${db}.events AS e
    LEFT JOIN (
      SELECT distinct_id, argMax(person_id, version) AS person_id
      FROM ${db}.person_distinct_id_overrides
      WHERE team_id = {team:UInt64}
      GROUP BY distinct_id
    ) AS o ON e.distinct_id = o.distinct_id
    WHERE e.team_id = {team:UInt64} AND ${where}
      AND e.timestamp >= {from:DateTime64(6, 'UTC')} AND e.timestamp < {to:DateTime64(6, 'UTC')}`;
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

function readBreakdownRows(rows, range) {
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
function readTrendResponse(body, range, { breakdown }) {
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
// The cases.

/**
 * Every case: `hand` (sql, params, read(rows)), `hoglet` (query body, read(json)) and, for the
 * funnels, `check`: a second, untimed reference query that must agree with `hand`.
 */
export function benchCases({ db, team, range }) {
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
  return [trend, breakdown, funnel3, ...stepFunnels];
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
