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
//   - unstructured events come in visits, as web traffic does: a visit is one person's session
//     (its own UUIDv7 $session_id, time part the visit's start), 30 % of visits a single page
//     view, the others 2 to 40 events (mean ~7) 2 s to 3 min apart, the first a $pageview, then a
//     mix of $pageview 55 %, $autocapture 25 %, $pageleave 8 %, viewed_pricing 4 %,
//     feature_used 4 %, started_checkout 3 %, $rageclick 1 %: ~5.2 events and ~1.9 M sessions
//     per 10 M events. A visit keeps one device profile ($browser of 8 values, skewed, missing on
//     3 % of persons; $os, $device_type, $viewport_width/height), its entry's traffic source on
//     every event ($referrer, $referring_domain, half of visits $direct; utm_source / medium /
//     campaign on 20 %, gclid on paid Google visits, fbclid on some Facebook ones) and the
//     person's place ($geoip_country_code / _name, $geoip_city_name, $geoip_time_zone, 12
//     places, skewed). Every web event carries $current_url, $pathname, $host, $session_id (also
//     in the column).
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
const REFERRERS = [['$direct', 0.5], ['www.google.com', 0.2], ['duckduckgo.com', 0.04], ['twitter.com', 0.05], ['news.ycombinator.com', 0.04], ['www.linkedin.com', 0.04], ['github.com', 0.05], ['l.facebook.com', 0.04], ['www.bing.com', 0.02], ['blog.partner.io', 0.02]];
/** Campaign traffic (20 % of visits): [utm_source, utm_medium, utm_campaign, click id, referring domain, weight]. */
const CAMPAIGNS = [
  ['google', 'cpc', 'brand_search', 'gclid', 'www.google.com', 0.3],
  ['newsletter', 'email', 'weekly_digest', '', '$direct', 0.2],
  ['twitter', 'social', 'launch_week', '', 't.co', 0.12],
  ['facebook', 'paid_social', 'retarget_video', 'fbclid', 'l.facebook.com', 0.1],
  ['hn', '', '', '', 'news.ycombinator.com', 0.08],
  ['partner', 'referral', 'partner_shop', '', 'blog.partner.io', 0.08],
  ['bing', 'cpc', 'cross-network', '', 'www.bing.com', 0.05],
  ['youtube.com', 'video', 'demo_video', '', 'www.youtube.com', 0.07],
];
/** The visit's event mix after its first page view. */
const VISIT_MIX = [['$pageview', 0.55], ['$autocapture', 0.25], ['$pageleave', 0.08], ['viewed_pricing', 0.04], ['feature_used', 0.04], ['started_checkout', 0.03], ['$rageclick', 0.01]];
/** A person's place: [country code, country name, city, time zone, weight]. */
const PLACES = [
  ['US', 'United States', 'New York', 'America/New_York', 0.22],
  ['US', 'United States', 'San Francisco', 'America/Los_Angeles', 0.12],
  ['GB', 'United Kingdom', 'London', 'Europe/London', 0.1],
  ['DE', 'Germany', 'Berlin', 'Europe/Berlin', 0.1],
  ['IN', 'India', 'Bengaluru', 'Asia/Kolkata', 0.09],
  ['FR', 'France', 'Paris', 'Europe/Paris', 0.07],
  ['BR', 'Brazil', 'São Paulo', 'America/Sao_Paulo', 0.06],
  ['CA', 'Canada', 'Toronto', 'America/Toronto', 0.05],
  ['NL', 'Netherlands', 'Amsterdam', 'Europe/Amsterdam', 0.05],
  ['JP', 'Japan', 'Tokyo', 'Asia/Tokyo', 0.05],
  ['AU', 'Australia', 'Sydney', 'Australia/Sydney', 0.05],
  ['PL', 'Poland', 'Warsaw', 'Europe/Warsaw', 0.04],
];
/** Viewport per device type: [width, height]. */
const VIEWPORTS = { Desktop: [1440, 900], Mobile: [390, 844], Tablet: [820, 1180] };

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

  /** A device profile (index into PROFILES): the person's, or another one for 10 % of `salt`s. */
  const profile = (x, salt) =>
    `if(${U('other-device', salt)} < 0.1, arrayFirstIndex(c -> ${U('device', salt)} < c, ${sqlArray(cumulative(PROFILES.map((row) => row[3])))}), ${p.profile(x)})`;
  /** The person's place (index into PLACES). */
  const place = (x) => `arrayFirstIndex(c -> ${U('place', x)} < c, ${sqlArray(cumulative(PLACES.map((row) => row[4])))})`;
  /**
   * The JSON properties of a web event of person `x` from SQL expressions of its device profile
   * `prof`, `pathname`, session id `sid`, and `extra` (a SQL string of more `"key":value,` pairs).
   */
  const properties = ({ x, prof, pathname, sid, extra }) => {
    const column = (i) => (values) => `${sqlArray(values)}[${i}]`;
    const ofProfile = column(prof);
    const browser = ofProfile(PROFILES.map((row) => row[0]));
    const viewport = (axis) => ofProfile(PROFILES.map((row) => VIEWPORTS[row[2]]?.[axis] ?? 0));
    const ofPlace = column(place(x));
    return `concat('{',
      if(${browser} = '', '', concat('"$browser":"', ${browser}, '","$os":"', ${ofProfile(PROFILES.map((row) => row[1]))}, '","$device_type":"', ${ofProfile(PROFILES.map((row) => row[2]))},
        '","$viewport_width":', toString(${viewport(0)}), ',"$viewport_height":', toString(${viewport(1)}), ',')),
      '"$current_url":"https://example.com', ${pathname}, '","$pathname":"', ${pathname}, '","$host":"example.com",',
      '"$geoip_country_code":"', ${ofPlace(PLACES.map((row) => row[0]))}, '","$geoip_country_name":"', ${ofPlace(PLACES.map((row) => row[1]))},
      '","$geoip_city_name":"', ${ofPlace(PLACES.map((row) => row[2]))}, '","$geoip_time_zone":"', ${ofPlace(PLACES.map((row) => row[3]))}, '",',
      '"$session_id":"', ${sid}, '",',
      ${extra},
      '"$lib":"web"}')`;
  };
  /** A UUIDv7 as posthog-js makes them: the first 48 bits `startMs`, the rest from `salt`'s hash. */
  const uuidV7 = (startMs, salt) => {
    const time = `leftPad(lower(hex(toUInt64(${startMs}))), 12, '0')`;
    const rest = `lower(hex(MD5(${salt})))`;
    return `concat(substring(${time}, 1, 8), '-', substring(${time}, 9, 4), '-7', substring(${rest}, 1, 3), '-8', substring(${rest}, 4, 3), '-', substring(${rest}, 7, 12))`;
  };
  /** The session of a structured event: one per person per 30-minute slot, starting at the slot. */
  const sessionId = (x, tsUs) => {
    const slot = `intDiv(${tsUs}, 1800000000)`;
    return uuidV7(`${slot} * 1800000`, `concat('session/', toString(${seed}), '/', toString(${x}), '/', toString(${slot}))`);
  };
  /** The session of visit `v`, starting at `startUs`. */
  const visitSessionId = (v, startUs) => uuidV7(`intDiv(${startUs}, 1000)`, `concat('visit/', toString(${seed}), '/', toString(${v}))`);

  return { startUs, nowUs, multiplier, U, U1, p, distinctId, profile, properties, sessionId, visitSessionId, mergeFraction };
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

/**
 * The events table row from the subquery's `pp` (person), `ts_us`, `ev`, `prof` (device profile),
 * `pathname`, `sid` (session id), `extra` (JSON pairs) and `key` (a unique string).
 */
function eventRow(team, model, seed) {
  const ts = `fromUnixTimestamp64Micro(ts_us, 'UTC')`;
  return `SELECT
      reinterpretAsUUID(MD5(concat('hoglet-bench-event/', toString(${seed}), '/', key))),
      ${team}, ev, ${model.distinctId('pp', 'ts_us')}, ${model.p.id('pp')},
      ${model.properties({ x: 'pp', prof: 'prof', pathname: 'pathname', sid: 'sid', extra: 'extra' })},
      ${ts}, ${ts}, sid, '', '', '', '', '',
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

/** JSON pairs of one of `rows`' columns, picked by `index` (a SQL expression, 1-based). */
const ofRow = (rows, column, index) => `${sqlArray(rows.map((row) => row[column]))}[${index}]`;

/**
 * A visit's traffic source as JSON pairs: `entry` for its first event (the landing page's
 * campaign parameters and click id), `every` for all of its events (the referrer).
 */
function visitTraffic(model, v) {
  const { U } = model;
  const campaign = `(${U('camp', v)} < 0.2)`;
  const which = `arrayFirstIndex(c -> ${U('campi', v)} < c, ${sqlArray(cumulative(CAMPAIGNS.map((row) => row[5])))})`;
  const referrer = pick(REFERRERS.map((r) => r[0]), REFERRERS.map((r) => r[1]), U('ref', v));
  const domain = `if(${campaign}, ${ofRow(CAMPAIGNS, 4, which)}, ${referrer})`;
  const pair = (key, value) => `if(${value} = '', '', concat('"${key}":"', ${value}, '",'))`;
  const clickKey = ofRow(CAMPAIGNS, 3, which);
  const click = `if(${clickKey} != '' AND ${U('click', v)} < 0.8, concat('"', ${clickKey}, '":"', substring(lower(hex(MD5(concat('click/', toString(${v}))))), 1, 24), '",'), '')`;
  return {
    entry: `if(${campaign}, concat(${pair('utm_source', ofRow(CAMPAIGNS, 0, which))}, ${pair('utm_medium', ofRow(CAMPAIGNS, 1, which))}, ${pair('utm_campaign', ofRow(CAMPAIGNS, 2, which))}, ${click}), '')`,
    every: `concat('"$referrer":"', if(${domain} = '$direct', '$direct', concat('https://', ${domain}, '/')), '","$referring_domain":"', ${domain}, '",')`,
  };
}

/**
 * Visits number `lo` to `lo + count - 1` and their events (those not after the data set's end),
 * in `key` order and at most `limit` of them.
 */
function visitSelect(team, model, seed, persons, lo, count, limit) {
  const { U, U1, p, nowUs, multiplier } = model;
  const first = p.firstUs('pp');
  const last = p.lastUs('pp');
  const length = `if(${U('bounce', 'v')} < 0.3, 1, least(40, 2 + toUInt32(floor(-log(${U1('len', 'v')}) * 5))))`;
  // 2 s to 3 min between events, most of them short.
  const offsets = `arrayCumSum(arrayMap(k -> if(k = 0, toInt64(0), toInt64(1000 * (2000 + floor(178000 * pow(${U('gap', 'v', 'k')}, 2))))), range(visit_length)))`;
  const traffic = visitTraffic(model, 'v');
  const mix = pick(VISIT_MIX.map((e) => e[0]), VISIT_MIX.map((e) => e[1]), U('what', 'v', 'k'));
  const feature = pick(['export', 'dashboards', 'alerts', 'sharing'], [0.4, 0.3, 0.2, 0.1], U('feat', 'v', 'k'));
  return `${eventRow(team, model, seed)}
    FROM (
      SELECT pp, sid, prof, position - 1 AS k, concat('v/', toString(v), '/', toString(k)) AS key, start_us + offset AS ts_us,
        if(k = 0, '$pageview', ${mix}) AS ev,
        if(k = 0, entry_path, ${pick(PATHS, PATH_WEIGHTS, U('path', 'v', 'k'))}) AS pathname,
        concat(every, if(k = 0, entry, ''),
          multiIf(ev = '$autocapture', '"$event_type":"click",', ev = 'feature_used', concat('"feature":"', ${feature}, '",'), '')) AS extra
      FROM (
        SELECT v, pp, start_us, ${length} AS visit_length, ${offsets} AS offsets,
          ${model.visitSessionId('v', 'start_us')} AS sid, ${model.profile('pp', 'v')} AS prof,
          ${pick(PATHS, PATH_WEIGHTS, U('entry', 'v'))} AS entry_path, ${traffic.entry} AS entry, ${traffic.every} AS every
        FROM (
          SELECT v, pp, intDiv(toInt64(${first} + (${last} - ${first}) * ${U('when', 'v')}), 1000) * 1000 AS start_us
          FROM (SELECT number AS v, (toUInt64(floor(${persons} * pow(${U('who', 'number')}, 1.5))) * ${multiplier} + 17) % ${persons} AS pp FROM numbers(${lo}, ${count}))
        )
      )
      ARRAY JOIN offsets AS offset, arrayEnumerate(offsets) AS position
      WHERE ts_us <= ${nowUs}
    )
    ORDER BY key
    LIMIT ${limit}`;
}

function structuredSelect(team, model, seed, persons) {
  const { U, sessionId } = model;
  return `${eventRow(team, model, seed)}
    FROM (
      SELECT pp, ev, ts_us, extra, key, ${sessionId('pp', 'ts_us')} AS sid, ${model.profile('pp', 'key')} AS prof,
        ${pick(PATHS, PATH_WEIGHTS, U('path', 'key'))} AS pathname
      FROM (
        SELECT pp, item.1 AS ev, item.2 AS ts_us, item.3 AS extra, concat('s/', toString(pp), '/', toString(idx)) AS key
        FROM (SELECT number AS pp, ${structuredEvents(model)} AS items FROM numbers(${persons}))
        ARRAY JOIN items AS item, arrayEnumerate(items) AS idx
        WHERE item.2 <= ${model.nowUs}
      )
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
  // Visits until the count is reached: ~5 events each; the last insert takes only what is missing.
  let total = structuredCount;
  const visitsPerInsert = Math.max(1000, Math.round(chunk / 5));
  for (let lo = 0; total < events; lo += visitsPerInsert) {
    await store.command(`INSERT INTO ${db}.events (${EVENT_COLUMNS}) ${visitSelect(team, model, seed, persons, lo, visitsPerInsert, events - total)}`, {}, long);
    const [{ count }] = await store.query(`SELECT count() AS count FROM ${db}.events WHERE team_id = {team:UInt64}`, { team }, long);
    total = Number(count);
    const seconds = (performance.now() - t) / 1000;
    onProgress(`events: ${total} of ${events} (${Math.round((total - structuredCount) / seconds)} rows/s)`);
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
