// HogQL cases of the query benchmark: five HogQLQuery texts a PostHog user writes (count by event,
// daily uniques with a person property filter, top URLs, a join to persons, a window function)
// against the same questions in hand-written ClickHouse SQL. Both sides page as HogQL does (the
// first 100 rows) and are compared row for row; parse and translate times are reported apart.

const SINCE_DAYS = 30;

/** The window's start, to the second, as both sides' literal (so neither reads its own clock). */
const sinceText = (nowMs) => new Date(Math.floor(nowMs / 1000) * 1000 - SINCE_DAYS * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');

/** Rows of JSONEachRow objects as arrays, 64-bit integers (quoted by the engine) as numbers. */
const arrays = (columns) => (rows) => rows.map((row) => columns.map((c) => (typeof row[c] === 'string' && /^\d+$/.test(row[c]) ? Number(row[c]) : row[c])));

/** The events after merges (person_id as the insights count it), since the window's start. */
function mergedEvents(db, since, columns, where) {
  return `SELECT ${columns}, if(notEmpty(o.distinct_id), o.person_id, e.person_id) AS person_id
    FROM ${db}.events AS e
    LEFT JOIN (SELECT distinct_id, argMax(person_id, version) AS person_id FROM ${db}.person_distinct_id_overrides
               WHERE team_id = {team:UInt64} GROUP BY distinct_id) AS o ON e.distinct_id = o.distinct_id
    WHERE e.team_id = {team:UInt64} AND e.timestamp >= ${since} AND ${where}`;
}

const livePersons = (db, columns, having = '1') => `SELECT id${columns ? `, ${columns}` : ''} FROM ${db}.persons WHERE team_id = {team:UInt64}
  GROUP BY id HAVING argMax(is_deleted, version) = 0 AND ${having}`;

export function hogqlCases({ db, team, nowMs }) {
  const text = sinceText(nowMs);
  const handSince = `toDateTime64('${text}', 6, 'UTC')`;
  const hoglet = (query) => ({
    query: { kind: 'HogQLQuery', query },
    read: (body) => body.results,
    timings: (body) => Object.fromEntries(body.timings.filter((t) => ['./parse', './translate', './query_0'].includes(t.k)).map((t) => [t.k === './query_0' ? 'statement' : t.k.slice(2), t.t * 1000])),
  });
  const since = `timestamp >= toDateTime('${text}')`;
  return [
    {
      id: 'hogql-count-by-event',
      label: 'HogQL: events of the last 30 days counted by event',
      hand: {
        sql: `SELECT event, count() AS c FROM ${db}.events WHERE team_id = {team:UInt64} AND timestamp >= ${handSince}
              GROUP BY event ORDER BY c DESC, event LIMIT 100`,
        params: { team },
        read: arrays(['event', 'c']),
      },
      hoglet: hoglet(`select event, count() as c from events where ${since} group by event order by c desc, event`),
    },
    {
      id: 'hogql-daily-uniques',
      label: 'HogQL: daily unique persons doing `$pageview` whose `$initial_browser` is Chrome',
      hand: {
        sql: `SELECT toStartOfDay(timestamp) AS day, uniqExact(person_id) AS users FROM (
                ${mergedEvents(db, handSince, 'e.timestamp AS timestamp', "e.event = '$pageview'")}
              ) AS ev
              WHERE person_id IN (${livePersons(db, '', "JSONExtractString(argMax(properties, version), '$initial_browser') = 'Chrome'")})
              GROUP BY day ORDER BY day LIMIT 100`,
        params: { team },
        read: (rows) => rows.map((r) => [r.day.replace(' ', 'T') + 'Z', Number(r.users)]),
      },
      hoglet: hoglet(`select toStartOfDay(timestamp) as day, uniqExact(person_id) as users from events
        where event = '$pageview' and ${since} and person.properties.$initial_browser = 'Chrome' group by day order by day`),
    },
    {
      id: 'hogql-top-urls',
      label: 'HogQL: the top 10 `$current_url` of `$pageview` in the last 30 days',
      hand: {
        sql: `SELECT JSONExtractString(properties, '$current_url') AS url, count() AS c FROM ${db}.events
              WHERE team_id = {team:UInt64} AND event = '$pageview' AND timestamp >= ${handSince}
              GROUP BY url ORDER BY c DESC, url LIMIT 10`,
        params: { team },
        read: arrays(['url', 'c']),
      },
      hoglet: hoglet(`select properties.$current_url as url, count() as c from events where event = '$pageview' and ${since} group by url order by c desc, url limit 10`),
    },
    {
      id: 'hogql-join-persons',
      label: 'HogQL: `purchase` events of the last 30 days joined to persons, counted by `$initial_browser`',
      hand: {
        sql: `SELECT JSONExtractString(p.properties, '$initial_browser') AS browser, count() AS c FROM (
                ${mergedEvents(db, handSince, 'e.event AS event', "e.event = 'purchase'")}
              ) AS ev
              INNER JOIN (${livePersons(db, 'argMax(properties, version) AS properties')}) AS p ON p.id = ev.person_id
              GROUP BY browser ORDER BY c DESC, browser LIMIT 100`,
        params: { team },
        read: arrays(['browser', 'c']),
      },
      hoglet: hoglet(`select p.properties.$initial_browser as browser, count() as c from events e inner join persons p on p.id = e.person_id
        where e.event = 'purchase' and e.${since} group by browser order by c desc, browser`),
    },
    {
      id: 'hogql-window',
      label: 'HogQL: what persons did right after `signed_up` (a window function over 30 days of events)',
      hand: {
        sql: `SELECT next, count() AS c FROM (
                SELECT event, leadInFrame(event) OVER (PARTITION BY distinct_id ORDER BY timestamp ASC, uuid ASC ROWS BETWEEN CURRENT ROW AND 1 FOLLOWING) AS next
                FROM ${db}.events WHERE team_id = {team:UInt64} AND timestamp >= ${handSince}
              ) WHERE event = 'signed_up' GROUP BY next ORDER BY c DESC, next LIMIT 100`,
        params: { team },
        read: arrays(['next', 'c']),
      },
      hoglet: hoglet(`select next, count() as c from (
          select event, leadInFrame(event) over (partition by distinct_id order by timestamp asc, uuid asc rows between current row and 1 following) as next
          from events where ${since}
        ) where event = 'signed_up' group by next order by c desc, next`),
    },
  ];
}
