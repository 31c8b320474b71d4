// Seeded data set for the query benchmark: BENCH_EVENTS events (default 10 000 000) from
// BENCH_PERSONS persons (default 100 000) over the 90 days before generation, written straight into
// the event store of an open Hoglet (services from dist/services.js).
//
//   node bench/query/generate.js <data-dir>     (standalone; run.js calls generate() itself)
//
// The rows are made by ClickHouse, not by Node: every value is a pure function of the seed and a
// row number (cityHash64 of the seed, a salt and the number), produced by
// `INSERT INTO ... SELECT ... FROM numbers(...)`. Same seed and sizes give the same events,
// persons, distinct ids and merges; only the time axis moves (it ends at the moment of generation).
// This is about 10x faster than shipping 10M rows as JSONEachRow through the client (~95k rows/s
// on the 2-core bench machine, see the Ingest benchmark), and it needs no memory in Node.
//
// What is in it (see bench/README.md, "Queries"):
//   - persons: BENCH_PERSONS rows in `persons`, an `anon-<p>` distinct id each, and `user-<p>` for
//     the ~45 % that identify (a `$identify` event at that moment; later events use `user-<p>`).
//     About 300 persons (0.3 %) are merged into another person: their own events keep their old
//     person_id, and `person_distinct_id_overrides` (plus a newer `person_distinct_ids` version and
//     a deleted `persons` version) move their distinct ids to the survivor.
//   - activity is skewed: the person of an event is floor(P * u^1.5) (shuffled), so the busiest
//     person has ~0.05 % of all events and the quietest ~70; each person starts at a time biased
//     towards the end of the 90 days; 45 % stay active to the end, the others stop at a uniform
//     point of their span; events (and sign-ups, journeys) fall uniformly within the active span.
//   - mix of unstructured events: $pageview 62 %, $autocapture 20 %, $pageleave 6 %,
//     viewed_pricing 4 %, feature_used 4 %, started_checkout 3 %, $rageclick 1 %; every web event
//     carries $browser (8 values, skewed, missing on 3 % of persons), $os, $device_type,
//     $current_url, $pathname, $host, $session_id (also in the column); $pageview adds
//     $referring_domain and sometimes utm_source.
//   - structured per person: signed_up (30 % of persons), 1-3 purchases with `amount` after it for
//     half of those (gap to the first one 0-20 days, so some fall outside a 14-day window), each
//     preceded by started_checkout; journeys through step_1..step_20 (half the persons, a quarter of
//     those twice) that go on to the next step with probability 0.85, 1 min to 2.5 days apart, plus
//     5 % of persons with one stray step event at a random time; and ~0.2 % of persons with a
//     planted window edge: step_1, step_2 one hour later, step_3 exactly 14 days after step_1
//     (inside the window) and step_4 one microsecond later (outside it).
//   - no two funnel-step events of one person share a timestamp (ties are left out on purpose).
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, envNumber, log } from '../lib/harness.js';

export const DEFAULT_SEED = 20261121;
const DAY_US = 86_400_000_000;
const TWO64 = '18446744073709551616.0';

/** The profiles behind $browser/$os/$device_type: weights add up to 1; the last one has no values. */
const PROFILES = [
  ['Chrome', 'Windows', 'Desktop', 0.26],
  ['Chrome', 'Mac OS X', 'Desktop', 0.12],
  ['Chrome', 'Android', 'Mobile', 0.08],
  ['Mobile Safari', 'iOS', 'Mobile', 0.16],
  ['Safari', 'Mac OS X', 'Desktop', 0.09],
  ['Firefox', 'Windows', 'Desktop', 0.06],
  ['Firefox', 'Linux', 'Desktop', 0.02],
  ['Microsoft Edge', 'Windows', 'Desktop', 0.07],
  ['Chrome iOS', 'iOS', 'Mobile', 0.04],
  ['Samsung Internet', 'Android', 'Mobile', 0.03],
  ['Opera', 'Windows', 'Desktop', 0.02],
  ['Mobile Safari', 'iOS', 'Tablet', 0.02],
  ['', '', '', 0.03],
];

const PATHS = ['/', '/pricing', '/docs', '/docs/getting-started', '/blog', '/blog/launch-week', '/product', '/about', '/changelog', '/signup'];
const PATH_WEIGHTS = [0.3, 0.12, 0.12, 0.06, 0.08, 0.04, 0.12, 0.04, 0.04, 0.08];
const REFERRERS = [['$direct', 0.5], ['www.google.com', 0.25], ['duckduckgo.com', 0.05], ['twitter.com', 0.06], ['news.ycombinator.com', 0.04], ['www.linkedin.com', 0.05], ['github.com', 0.05]];
const UTM_SOURCES = ['google', 'newsletter', 'twitter', 'hn', 'partner'];
const EVENT_MIX = [['$pageview', 0.62], ['$autocapture', 0.2], ['$pageleave', 0.06], ['viewed_pricing', 0.04], ['feature_used', 0.04], ['started_checkout', 0.03], ['$rageclick', 0.01]];

const sqlString = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const sqlArray = (values) => `[${values.map((v) => (typeof v === 'number' ? String(v) : sqlString(v))).join(', ')}]`;
const cumulative = (weights) => {
  let sum = 0;
  return weights.map((w, i) => (i === weights.length - 1 ? 1.01 : (sum += w)));
};
/** SQL: element of `values` picked by a uniform `u` with these weights. */
const pick = (values, weights, u) => `${sqlArray(values)}[arrayFirstIndex(c -> ${u} < c, ${sqlArray(cumulative(weights))})]`;

function gcd(a, b) {
  return b === 0 ? a : gcd(b, a % b);
}

/**
 * SQL expressions of the data set, all pure functions of the seed and row numbers.
 * `nowUs` is the end of the 90 days, in microseconds (a whole millisecond).
 */
export function dataModel({ seed, persons, nowUs }) {
  const startUs = nowUs - 90 * DAY_US;
  let multiplier = 7919;
  while (gcd(multiplier, persons) !== 1) multiplier += 2;
  // Uniform in [0, 1) from the seed, a salt and the given expressions; `U1` in (0, 1] for logs.
  const U = (salt, ...exprs) => `(cityHash64(${seed}, '${salt}', ${exprs.join(', ')}) / ${TWO64})`;
  const U1 = (salt, ...exprs) => `((cityHash64(${seed}, '${salt}', ${exprs.join(', ')}) + 1) / ${TWO64})`;
  const mergeFraction = Math.min(0.5, 300 / persons);

  const p = {
    id: (x) => `reinterpretAsUUID(MD5(concat('hoglet-bench-person/', toString(${seed}), '/', toString(${x}))))`,
    // Start of activity: biased towards the end (density grows linearly over the 90 days).
    firstUs: (x) => `toInt64(${startUs} + floor(${90 * DAY_US * 0.97} * sqrt(${U('first', x)})))`,
    // End of activity: 45 % of persons are still active at the end, the others stop at a uniform
    // point of their span.
    lastUs: (x) => `(${p.firstUs(x)} + toInt64(floor((${nowUs} - ${p.firstUs(x)}) * if(${U('churn', x)} < 0.45, 1, ${U('life', x)}))))`,
    identified: (x) => `(${U('ident', x)} < 0.45)`,
    identifyUs: (x) => `(${p.firstUs(x)} + toInt64(floor((${p.lastUs(x)} - ${p.firstUs(x)}) * ${U('identt', x)} / 1000)) * 1000)`,
    profile: (x) => `arrayFirstIndex(c -> ${U('profile', x)} < c, ${sqlArray(cumulative(PROFILES.map((row) => row[3])))})`,
    // Merged persons, each into the person 7 further on, unless that one is merged itself.
    target: (x) => `((${x} + 7) % ${persons})`,
    merged: (x) => `(${U('merge', x)} < ${mergeFraction} AND ${U('merge', p.target(x))} >= ${mergeFraction})`,
  };

  /** The distinct id an event of person `x` at `tsUs` was sent with. */
  const distinctId = (x, tsUs) =>
    `if(${p.identified(x)} AND ${tsUs} >= ${p.identifyUs(x)}, concat('user-', toString(${x})), concat('anon-', toString(${x})))`;

  /**
   * The JSON properties of a web event: the person's device profile (10 % of events on another
   * one), page, session; `extra` is a SQL string of more `"key":value,` pairs.
   */
  const properties = (x, tsUs, salt, extra) => {
    const profile = `if(${U('other-device', salt)} < 0.1, arrayFirstIndex(c -> ${U('device', salt)} < c, ${sqlArray(cumulative(PROFILES.map((row) => row[3])))}), ${p.profile(x)})`;
    const browser = `${sqlArray(PROFILES.map((row) => row[0]))}[${profile}]`;
    const os = `${sqlArray(PROFILES.map((row) => row[1]))}[${profile}]`;
    const device = `${sqlArray(PROFILES.map((row) => row[2]))}[${profile}]`;
    const pathname = pick(PATHS, PATH_WEIGHTS, U('path', salt));
    return `concat('{',
      if(${browser} = '', '', concat('"$browser":"', ${browser}, '","$os":"', ${os}, '","$device_type":"', ${device}, '",')),
      '"$current_url":"https://example.com', ${pathname}, '","$pathname":"', ${pathname}, '","$host":"example.com",',
      '"$session_id":"', ${sessionId(x, tsUs)}, '",',
      ${extra},
      '"$lib":"web"}')`;
  };
  /**
   * A session: one per person per 30-minute slot. Its id is a UUIDv7 as posthog-js makes them: the
   * first 48 bits the session start (the slot's, in milliseconds), the rest from a hash.
   */
  const sessionId = (x, tsUs) => {
    const slot = `intDiv(${tsUs}, 1800000000)`;
    const time = `leftPad(lower(hex(toUInt64(${slot} * 1800000))), 12, '0')`;
    const rest = `lower(hex(MD5(concat('session/', toString(${seed}), '/', toString(${x}), '/', toString(${slot})))))`;
    return `concat(substring(${time}, 1, 8), '-', substring(${time}, 9, 4), '-7', substring(${rest}, 1, 3), '-8', substring(${rest}, 4, 3), '-', substring(${rest}, 7, 12))`;
  };

  return { startUs, nowUs, multiplier, U, U1, p, distinctId, properties, sessionId, mergeFraction };
}

/** `INSERT ... SELECT` of the persons, their distinct ids and the merges. */
function personStatements(db, team, model, persons) {
  const { p } = model;
  const x = 'number';
  const createdAt = `fromUnixTimestamp64Milli(intDiv(${p.firstUs(x)}, 1000), 'UTC')`;
  const props = `concat('{', if(${p.identified(x)}, concat('"email":"user-', toString(${x}), '@example.com","name":"User ', toString(${x}), '",'), ''),
      '"$initial_browser":"', ${sqlArray(PROFILES.map((row) => row[0]))}[${p.profile(x)}], '",',
      '"plan":"', ${pick(['free', 'pro', 'enterprise'], [0.8, 0.17, 0.03], model.U('plan', x))}, '"}')`;
  const to = p.id(p.target(x));
  return [
    `INSERT INTO ${db}.persons (id, team_id, properties, is_identified, created_at, version, is_deleted)
     SELECT ${p.id(x)}, ${team}, ${props}, ${p.identified(x)}, ${createdAt}, 0, false FROM numbers(${persons})`,
    `INSERT INTO ${db}.persons (id, team_id, properties, is_identified, created_at, version, is_deleted)
     SELECT ${p.id(x)}, ${team}, '{}', ${p.identified(x)}, ${createdAt}, 1, true FROM numbers(${persons}) WHERE ${p.merged(x)}`,
    `INSERT INTO ${db}.person_distinct_ids (team_id, distinct_id, person_id, version, is_deleted)
     SELECT ${team}, concat('anon-', toString(${x})), ${p.id(x)}, 0, false FROM numbers(${persons})
     UNION ALL
     SELECT ${team}, concat('user-', toString(${x})), ${p.id(x)}, 0, false FROM numbers(${persons}) WHERE ${p.identified(x)}`,
    `INSERT INTO ${db}.person_distinct_ids (team_id, distinct_id, person_id, version, is_deleted)
     SELECT ${team}, concat('anon-', toString(${x})), ${to}, 1, false FROM numbers(${persons}) WHERE ${p.merged(x)}
     UNION ALL
     SELECT ${team}, concat('user-', toString(${x})), ${to}, 1, false FROM numbers(${persons}) WHERE ${p.merged(x)} AND ${p.identified(x)}`,
    `INSERT INTO ${db}.person_distinct_id_overrides (team_id, distinct_id, person_id, version, is_deleted)
     SELECT ${team}, concat('anon-', toString(${x})), ${to}, 1, false FROM numbers(${persons}) WHERE ${p.merged(x)}
     UNION ALL
     SELECT ${team}, concat('user-', toString(${x})), ${to}, 1, false FROM numbers(${persons}) WHERE ${p.merged(x)} AND ${p.identified(x)}`,
  ];
}

const EVENT_COLUMNS = 'uuid, team_id, event, distinct_id, person_id, properties, timestamp, created_at, `$session_id`, `$group_0`, `$group_1`, `$group_2`, `$group_3`, `$group_4`, elements_chain, historical_migration';

/** The events table row from `pp` (person), `ts_us`, `ev`, `extra` (JSON pairs), `key` (unique string). */
function eventRow(team, model, seed) {
  const ts = `fromUnixTimestamp64Micro(ts_us, 'UTC')`;
  return `SELECT
      reinterpretAsUUID(MD5(concat('hoglet-bench-event/', toString(${seed}), '/', key))),
      ${team}, ev, ${model.distinctId('pp', 'ts_us')}, ${model.p.id('pp')},
      ${model.properties('pp', 'ts_us', 'key', 'extra')},
      ${ts}, ${ts}, ${model.sessionId('pp', 'ts_us')}, '', '', '', '', '',
      if(ev = '$autocapture', 'button.btn.btn-primary:text="Get started"nth-child="1"nth-of-type="1"', ''),
      false`;
}

/**
 * Per person: signed_up, checkouts and purchases, $identify, step journeys, stray steps and the
 * planted window edges, as an array of (event, ts_us, extra JSON pairs) tuples.
 */
function structuredEvents(model) {
  const { U, U1, p, nowUs } = model;
  const x = 'pp';
  const first = p.firstUs(x);
  const last = p.lastUs(x);
  const ms = (expr) => `(intDiv(toInt64(${expr}), 1000) * 1000)`;
  const signed = `(${U('su', x)} < 0.30)`;
  const signupUs = ms(`${first} + (${last} - ${first}) * ${U('sut', x)}`);
  const buys = `if(${signed} AND ${U('buy', x)} < 0.5, 1 + (${U('k2', x)} < 0.3) + (${U('k3', x)} < 0.1), 0)`;
  const gap1 = `${20 * DAY_US} * pow(${U('g1', x)}, 2)`;
  const gap2 = `${gap1} + ${30 * DAY_US} * ${U('g2', x)}`;
  const gap3 = `${gap2} + ${30 * DAY_US} * ${U('g3', x)}`;
  const purchaseTimes = `arrayMap(g -> ${ms(`${signupUs} + g`)}, arraySlice([${gap1}, ${gap2}, ${gap3}], 1, ${buys}))`;
  const amount = (i) => `toString(round(5 + 295 * pow(${U('amount', x, i)}, 2), 2))`;
  const purchases = `arrayFlatten(arrayMap((t, i) -> [
      ('started_checkout', t - ${ms(`30000000 + 570000000 * ${U('co', x, 'i')}`)}, '"cart_size":2,'),
      ('purchase', t, concat('"amount":', ${amount('i')}, ',"currency":"USD",'))], ${purchaseTimes}, arrayEnumerate(${purchaseTimes})))`;
  const signup = `if(${signed}, [('signed_up', ${signupUs}, concat('"plan":"', if(${U('plan2', x)} < 0.8, 'free', 'pro'), '",'))], [])`;
  const identify = `if(${p.identified(x)}, [('$identify', ${p.identifyUs(x)}, concat('"$anon_distinct_id":"anon-', toString(${x}), '",'))], [])`;

  const edge = `(${U('edge', x)} < 0.002)`;
  // A journey j (1-based) of person x: start, number of steps reached, cumulative gaps.
  const journeys = `if(NOT ${edge} AND ${U('jr', x)} < 0.5, 1 + (${U('j2', x)} < 0.25), 0)`;
  const start = (j) => ms(`${first} + (${last} - ${first}) * ${U('js', x, j)}`);
  const reach = (j) => `least(20, 1 + toUInt32(floor(log(${U1('jreach', x, j)}) / log(0.85))))`;
  const offsets = (j) => `arrayCumSum(arrayMap(k -> if(k = 0, toInt64(0), ${ms(`60000000 + ${2.5 * DAY_US} * pow(${U('gap', x, j, 'k')}, 3)`)}), range(${reach(j)})))`;
  const journeyEvents = `arrayFlatten(arrayMap(j -> arrayMap((o, k) -> (concat('step_', toString(k)), ${start('j')} + o, concat('"step":', toString(k), ',')),
      ${offsets('j')}, arrayEnumerate(${offsets('j')})), range(1, ${journeys} + 1)))`;
  const stray = `if(NOT ${edge} AND ${U('stray', x)} < 0.05,
      [(concat('step_', toString(1 + toUInt32(floor(20 * ${U('straystep', x)})))), ${ms(`${first} + (${last} - ${first}) * ${U('strayt', x)}`)}, '"stray":true,')], [])`;
  const edgeStart = ms(`${nowUs - 20 * DAY_US} + ${5 * DAY_US} * ${U('edget', x)}`);
  const edges = `if(${edge}, [
      ('step_1', ${edgeStart}, '"step":1,'),
      ('step_2', ${edgeStart} + 3600000000, '"step":2,'),
      ('step_3', ${edgeStart} + ${14 * DAY_US}, '"step":3,'),
      ('step_4', ${edgeStart} + ${14 * DAY_US + 1}, '"step":4,')], [])`;
  return `arrayConcat(${signup}, ${purchases}, ${identify}, ${journeyEvents}, ${stray}, ${edges})`;
}

/** Unstructured events number `lo` to `hi - 1`. */
function generalSelect(team, model, seed, persons, lo, count) {
  const { U, p, nowUs, multiplier } = model;
  const first = p.firstUs('pp');
  const last = p.lastUs('pp');
  const mix = pick(EVENT_MIX.map((e) => e[0]), EVENT_MIX.map((e) => e[1]), U('what', 'number'));
  const referrer = pick(REFERRERS.map((r) => r[0]), REFERRERS.map((r) => r[1]), U('ref', 'n'));
  const utm = pick(UTM_SOURCES, [0.4, 0.25, 0.15, 0.1, 0.1], U('utms', 'n'));
  return `${eventRow(team, model, seed)}
    FROM (
      SELECT n, pp, ev, concat('g/', toString(n)) AS key,
        intDiv(toInt64(${first} + (${last} - ${first}) * ${U('when', 'n')}), 1000) * 1000 AS ts_us,
        multiIf(ev = '$pageview', concat('"$referring_domain":"', ${referrer}, '",', if(${U('utm', 'n')} < 0.15, concat('"utm_source":"', ${utm}, '",'), '')),
                ev = '$autocapture', '"$event_type":"click",',
                ev = 'feature_used', concat('"feature":"', ${pick(['export', 'dashboards', 'alerts', 'sharing'], [0.4, 0.3, 0.2, 0.1], U('feat', 'n'))}, '",'),
                '') AS extra
      FROM (
        SELECT number AS n, (toUInt64(floor(${persons} * pow(${U('who', 'number')}, 1.5))) * ${multiplier} + 17) % ${persons} AS pp,
          ${mix} AS ev
        FROM numbers(${lo}, ${count})
      )
    )`;
}

function structuredSelect(team, model, seed, persons) {
  return `${eventRow(team, model, seed)}
    FROM (
      SELECT pp, item.1 AS ev, item.2 AS ts_us, item.3 AS extra, concat('s/', toString(pp), '/', toString(idx)) AS key
      FROM (SELECT number AS pp, ${structuredEvents(model)} AS items FROM numbers(${persons}))
      ARRAY JOIN items AS item, arrayEnumerate(items) AS idx
      WHERE item.2 <= ${model.nowUs}
    )`;
}

/**
 * Fills the event store of `services` for project `team`. Returns what was made and how long it
 * took. `onProgress(message)` gets progress lines.
 */
export async function generate(services, { team, events, persons, seed = DEFAULT_SEED, chunk = 1_000_000, nowMs = Date.now(), onProgress = () => {} }) {
  const store = services.events;
  const db = store.layout.database;
  const model = dataModel({ seed, persons, nowUs: nowMs * 1000 });
  const long = { timeoutSeconds: 3600 };
  const started = performance.now();
  const timings = {};

  let t = performance.now();
  for (const statement of personStatements(db, team, model, persons)) await store.command(statement, {}, long);
  timings.persons = (performance.now() - t) / 1000;
  onProgress(`persons, distinct ids and merges written in ${timings.persons.toFixed(1)} s`);

  t = performance.now();
  await store.command(`INSERT INTO ${db}.events (${EVENT_COLUMNS}) ${structuredSelect(team, model, seed, persons)}`, {}, long);
  const [{ structured }] = await store.query(`SELECT count() AS structured FROM ${db}.events WHERE team_id = {team:UInt64}`, { team }, long);
  const structuredCount = Number(structured);
  timings.structured = (performance.now() - t) / 1000;
  onProgress(`${structuredCount} structured events (sign-ups, purchases, identifies, step journeys) in ${timings.structured.toFixed(1)} s`);
  if (structuredCount > events) throw new Error(`BENCH_EVENTS=${events} is smaller than the ${structuredCount} structured events of ${persons} persons`);

  t = performance.now();
  const general = events - structuredCount;
  for (let lo = 0; lo < general; lo += chunk) {
    const count = Math.min(chunk, general - lo);
    await store.command(`INSERT INTO ${db}.events (${EVENT_COLUMNS}) ${generalSelect(team, model, seed, persons, lo, count)}`, {}, long);
    const done = lo + count;
    const seconds = (performance.now() - t) / 1000;
    onProgress(`events: ${structuredCount + done} of ${events} (${Math.round(done / seconds)} rows/s)`);
  }
  timings.general = (performance.now() - t) / 1000;

  t = performance.now();
  onProgress('merging parts (OPTIMIZE TABLE events FINAL)');
  await store.command(`OPTIMIZE TABLE ${db}.events FINAL`, {}, long);
  timings.optimize = (performance.now() - t) / 1000;
  timings.total = (performance.now() - started) / 1000;
  onProgress(`generated in ${timings.total.toFixed(1)} s (optimize ${timings.optimize.toFixed(1)} s)`);
  return { seed, events, persons, structured: structuredCount, nowMs, startMs: model.startUs / 1000, timings };
}

// ---------------------------------------------------------------------------------------------
// The data directory: Hoglet's services opened on it, the data set generated first if missing.
// A finished data set is marked by `bench-query.json` in the directory (sizes, seed, time span,
// project id and the bootstrap key); a directory that has data but no marker (an interrupted
// generation) is refused rather than measured.

const DIST = path.join(ROOT, 'dist');
export const MARKER = 'bench-query.json';

export async function loadDist() {
  const files = {
    config: path.join(DIST, 'config.js'),
    services: path.join(DIST, 'services.js'),
    app: path.join(DIST, 'http', 'app.js'),
  };
  for (const file of Object.values(files)) {
    if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing; run \`npm run build\` first`);
  }
  const [{ loadConfig }, { createServices }, { buildApp }] = await Promise.all(
    Object.values(files).map((file) => import(pathToFileURL(file).href)),
  );
  return { loadConfig, createServices, buildApp };
}

/** The sizes asked for: BENCH_EVENTS (default 10 000 000), BENCH_PERSONS (default 100 000). */
export function requestedSize() {
  return {
    events: envNumber('BENCH_EVENTS', 10_000_000, { integer: true }),
    persons: envNumber('BENCH_PERSONS', 100_000, { integer: true }),
    seed: DEFAULT_SEED,
  };
}

/**
 * Services open on `dataDir` with the data set in place. Returns `{ services, info, generated }`;
 * `info` is the marker's content.
 */
export async function prepareDataSet(dataDir, size = requestedSize()) {
  const { loadConfig, createServices } = await loadDist();
  const markerPath = path.join(dataDir, MARKER);
  let info = null;
  if (existsSync(markerPath)) {
    info = JSON.parse(readFileSync(markerPath, 'utf8'));
    if (info.events !== size.events || info.persons !== size.persons || info.seed !== size.seed) {
      throw new Error(
        `${dataDir} holds a data set of ${info.events} events / ${info.persons} persons / seed ${info.seed}, ` +
          `not the ${size.events} / ${size.persons} / ${size.seed} asked for; use another BENCH_DATA_DIR or remove it`,
      );
    }
  } else if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} is not empty but has no ${MARKER} (an interrupted generation?); remove it or pick another BENCH_DATA_DIR`);
  }

  const config = loadConfig({ dataDir, logLevel: 'warn' }, {});
  const services = await createServices(config, { onBackgroundError: (error) => log(`background error: ${error?.stack ?? error}`) });
  if (info) {
    log(`reusing the data set in ${dataDir} (${info.events} events, ${info.persons} persons, generated ${new Date(info.nowMs).toISOString()})`);
    return { services, info, generated: false };
  }
  try {
    const ids = await services.accounts.bootstrap({
      email: 'bench@example.com',
      organizationName: 'Bench',
      projectName: 'Query benchmark',
      scopes: ['*'],
    });
    log(`generating ${size.events} events from ${size.persons} persons into ${dataDir} (project ${ids.project_id})`);
    const result = await generate(services, {
      team: Number(ids.project_id),
      events: size.events,
      persons: size.persons,
      seed: size.seed,
      onProgress: (message) => log(`generate: ${message}`),
    });
    info = {
      ...result,
      project_id: Number(ids.project_id),
      personal_api_key: ids.personal_api_key,
      generatedAt: new Date().toISOString(),
    };
    writeFileSync(markerPath, `${JSON.stringify(info, null, 2)}\n`);
    return { services, info, generated: true };
  } catch (error) {
    await services.close().catch(() => {});
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------
// Standalone: node bench/query/generate.js <data-dir>

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: node bench/query/generate.js <data-dir>\n');
    process.exit(2);
  }
  const { services, info } = await prepareDataSet(path.resolve(dir));
  process.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
  await services.close();
  process.exit(existsSync(dir) ? 0 : 1);
}
