// Ingest benchmark: events per second that Hoglet acknowledges (stored, then 200) through the
// capture endpoints, against the floor of inserting the same kind of rows straight into the event
// store in this process.
//
//   npm run bench:ingest                     (builds dist/ first)
//   node bench/ingest/run.js                 (uses the dist/ already built)
//   BENCH_DURATION=30 BENCH_CONNECTIONS=20,100 node bench/ingest/run.js
//
// Steps, in order:
//   1. Floor: open an event store on its own temporary data directory in this process, insert
//      rows in batches of 10 000 through EventStore.insert for BENCH_DURATION seconds of insert
//      time, close it. (chDB opens one directory per process at a time; this one is closed before
//      the server's is opened at the end.)
//   2. Hoglet: `hoglet bootstrap` a fresh data directory, start `hoglet serve` on it as a child.
//      For every connection count in BENCH_CONNECTIONS (comma-separated, default 10,100):
//      POST /batch/ with gzip'd posthog-node-shaped batches of 100 events, then, for every count
//      again, POST /e/ with one plain-JSON event per request. Each run is a 2 s warm-up and a
//      measured run of BENCH_DURATION seconds (default 10). Every request carries fresh uuids:
//      bodies are generated before each run, so the generator's own work is not measured:
//      /batch/ bodies gzip'd (enough for 1.5x BENCH_BODY_BUDGET_EPS events/s, default 150 000),
//      /e/ bodies for 1.5x BENCH_SINGLE_BUDGET_RPS requests/s (default 20 000).
//   3. Memory: the server's VmRSS once idle after start, VmHWM (peak) and VmRSS after the runs.
//   4. Verification: SIGTERM the server (it drains and closes), open its event store here and
//      check that every acknowledged event is stored, exactly once, and nothing beyond what was sent.
//
// Diagnosis knobs (figures taken with them are not comparable): BENCH_SERVER_NODE_FLAGS adds node
// flags to the server (e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof'); BENCH_FLUSH_TIMING=1 runs it
// through bench/ingest/timed-serve.js, which prints where each group-commit flush spends its time.
// For A/B comparisons (BENCH_GEOIP=on|off): BENCH_ENDPOINTS=batch loads /batch/ only and
// BENCH_FLOOR=off skips the floor (shorter runs; the ratio column is then n/a); BENCH_RATE=<events/s>
// asks a fixed rate and BENCH_PROBES=off drops the probes, so server cores ÷ events/s is the
// server's CPU per event. BENCH_SHAPE=posthog-js (with BENCH_ENDPOINTS=batch) sends posthog-js's
// web traffic instead (web-events.js): 1-3 KB events without $ip, the address in X-Forwarded-For.
//
// Beside each measured run, two probes: an /e/ event every 250 ms timed from its 200 to a query
// that sees it, and a 7-day trend asked over and over (never from the cache).
//
// A 503 is capture refusing load it cannot store in time (nothing of the request is stored): it is
// counted and shown, not a failure. Any other non-2xx response, connection error or timeout,
// exhausted body pool, failed probe or failed verification
// fails the benchmark (exit 1) after the report is printed. Progress goes to stderr; the Markdown
// report goes to stdout. Child processes are stopped and temporary directories removed on every
// exit path.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { EventFactory, USER_AGENT, uuidv7 } from './events.js';
import { WEB_LIB_VERSION, WEB_PATH, WebEventFactory } from './web-events.js';
import {
  HOGLET_BIN,
  HOST,
  ROOT,
  bootstrapHoglet,
  commandLine,
  coresDescription,
  envList,
  envNumber,
  fmtMs,
  freePort,
  installCleanup,
  log,
  makeTempDir,
  ok2xx,
  packageVersion,
  percentile,
  problemsOf,
  removeTempDir,
  runAndExit,
  runAutocannon,
  showLeftoverOutput,
  sleep,
  startChild,
  statusCounts,
  stopChild,
  waitForReady,
  withTimeout,
} from '../lib/harness.js';

const DIST = path.join(ROOT, 'dist');

const WARMUP_SECONDS = 2;
const DURATION_SECONDS = envNumber('BENCH_DURATION', 10, { integer: false });
const CONNECTIONS = envList('BENCH_CONNECTIONS', [10, 100]);
const BODY_BUDGET_EPS = envNumber('BENCH_BODY_BUDGET_EPS', 150_000, { integer: true });
/** /e/ requests per second the pre-generated single-event bodies cover (1.5x of it). */
const SINGLE_BUDGET_RPS = envNumber('BENCH_SINGLE_BUDGET_RPS', 20_000, { integer: true });
const BODY_BUDGET_FACTOR = 1.5;
const EVENTS_PER_BATCH = 100;
const FLOOR_ROWS_PER_INSERT = 10_000;
const USERS = 10_000;
const AIM_EVENTS_PER_SECOND = 100_000;
/** Extra `node` flags for the server, for diagnosis only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const SERVER_NODE_FLAGS = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/** Diagnosis only: run the server through timed-serve.js, which prints flush timings per measured run. */
const FLUSH_TIMING = process.env.BENCH_FLUSH_TIMING === '1';
/**
 * GeoIP comparison: 'on' or 'off' sends every user's events with a public `$ip` of theirs and runs
 * the server with the bundled GeoIP database (on) or HOGLET_GEOIP_DATABASE=off; unset, the events
 * carry posthog-node's default `$geoip_disable: true` (no lookup) as before.
 */
const GEOIP = process.env.BENCH_GEOIP ?? '';
if (!['', 'on', 'off'].includes(GEOIP)) throw new Error(`BENCH_GEOIP must be on or off, got "${GEOIP}"`);
if (GEOIP) process.env.HOGLET_GEOIP_DATABASE = GEOIP === 'on' ? 'bundled' : 'off';
/** Which endpoints to load (`batch`, `e`; default both) and whether to measure the floor (`off`
 * skips it: the ratio column is then n/a). For A/B runs such as BENCH_GEOIP's. */
const ENDPOINTS = (process.env.BENCH_ENDPOINTS ?? 'batch,e').split(',').filter(Boolean);
if (ENDPOINTS.some((e) => !['batch', 'e'].includes(e))) throw new Error(`BENCH_ENDPOINTS lists batch and/or e, got "${ENDPOINTS}"`);
const FLOOR = process.env.BENCH_FLOOR !== 'off';
/** BENCH_SHAPE=posthog-js: the /batch/ target sends posthog-js queue flushes instead (web-events.js:
 * `/e/?compression=gzip-js`, WEB_EVENTS_PER_REQUEST $pageview / $autocapture / $pageleave of one of
 * WEB_VISITORS visitors, no $ip, the visitor's address in X-Forwarded-For). */
const SHAPE = process.env.BENCH_SHAPE ?? 'posthog-node';
if (!['posthog-node', 'posthog-js'].includes(SHAPE)) throw new Error(`BENCH_SHAPE must be posthog-node or posthog-js, got "${SHAPE}"`);
const WEB = SHAPE === 'posthog-js';
if (WEB && ENDPOINTS.includes('e')) throw new Error('BENCH_SHAPE=posthog-js loads the batch target only: set BENCH_ENDPOINTS=batch');
const WEB_EVENTS_PER_REQUEST = 10;
/** BENCH_WEB_VISITORS: fewer visitors means more events per address (each is first seen in the warm-up). */
const WEB_VISITORS = envNumber('BENCH_WEB_VISITORS', 2_000, { integer: true });
const BATCH_EVENTS = WEB ? WEB_EVENTS_PER_REQUEST : EVENTS_PER_BATCH;
/** Events/s asked in total (unset: as fast as the connections go) and whether to run the probes:
 * at a fixed rate with no probes, server cores ÷ events/s is the server's CPU per event. */
const RATE = process.env.BENCH_RATE ? envNumber('BENCH_RATE', 0, { integer: true }) : null;
const PROBES = process.env.BENCH_PROBES !== 'off';
const TIMED_SERVE = fileURLToPath(new URL('./timed-serve.js', import.meta.url));

// Bounds on every wait.
const BOOTSTRAP_TIMEOUT_MS = 30_000;
const READY_TIMEOUT_MS = 30_000;
const REQUEST_TIMEOUT_MS = 15_000;
const STOP_TIMEOUT_MS = 30_000; // the server drains pending inserts before it exits
const STORE_TIMEOUT_MS = 60_000; // opening the event store, one insert, one count
const RUN_GRACE_MS = 30_000; // on top of a run's own duration
const IDLE_SETTLE_MS = 2_000;
const RUN_COUNT = CONNECTIONS.length * ENDPOINTS.length;
// Body generation runs at roughly 2 000 bodies/s; give it four times that.
const GENERATION_BUDGET_MS = Math.ceil((bodiesFor(WARMUP_SECONDS + DURATION_SECONDS, 0) * CONNECTIONS.length) / 500) * 1000
  + Math.ceil((singleBodiesFor(WARMUP_SECONDS + DURATION_SECONDS, 0) * CONNECTIONS.length) / 20_000) * 1000;
const OVERALL_TIMEOUT_MS =
  DURATION_SECONDS * 3000 +
  RUN_COUNT * ((WARMUP_SECONDS + DURATION_SECONDS) * 1000 + 2 * RUN_GRACE_MS) +
  GENERATION_BUDGET_MS +
  BOOTSTRAP_TIMEOUT_MS + READY_TIMEOUT_MS + STOP_TIMEOUT_MS + 4 * STORE_TIMEOUT_MS;

/** /batch/ bodies one run needs: 1.5x the events of BODY_BUDGET_EPS, plus each connection's first. */
function bodiesFor(seconds, connections) {
  return Math.ceil((BODY_BUDGET_EPS * BODY_BUDGET_FACTOR * seconds) / BATCH_EVENTS) + connections;
}

/** /e/ bodies one run needs: 1.5x SINGLE_BUDGET_RPS requests, plus each connection's first. */
function singleBodiesFor(seconds, connections) {
  return Math.ceil(SINGLE_BUDGET_RPS * BODY_BUDGET_FACTOR * seconds) + connections;
}

installCleanup({ overallTimeoutMs: OVERALL_TIMEOUT_MS, stopping: 'the server' });

// ---------------------------------------------------------------------------------------------
// The event store, opened in this process (floor and verification).

async function loadStoreModules() {
  const modules = {
    config: path.join(DIST, 'config.js'),
    connect: path.join(DIST, 'storage', 'events', 'connect.js'),
    time: path.join(DIST, 'storage', 'events', 'time.js'),
  };
  for (const file of Object.values(modules)) {
    if (!existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing; run \`npm run build\` first`);
  }
  const [{ loadConfig }, { openEventStore }, { formatMicros }] = await Promise.all(
    Object.values(modules).map((file) => import(pathToFileURL(file).href)),
  );
  return { loadConfig, openEventStore, formatMicros };
}

/** Opens the embedded event store of `dataDir` (never a ClickHouse server: env is not read). */
async function openStore(dataDir) {
  const { loadConfig, openEventStore } = await loadStoreModules();
  return withTimeout(openEventStore(loadConfig({ dataDir }, {}).events), STORE_TIMEOUT_MS, `opening the event store in ${dataDir}`);
}

// ---------------------------------------------------------------------------------------------
// /proc readings of the server process.

const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5000 }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** VmRSS / VmHWM of a process in MiB, or null when /proc cannot tell. */
function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field) => {
      const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
      return match ? Number(match[1]) / 1024 : null;
    };
    return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
  } catch {
    return { rss: null, hwm: null };
  }
}

/** CPU seconds (user + system) used so far by a process, or null. */
function cpuSecondsOf(pid, thread = null) {
  try {
    // With `thread` (its id; the process id is the main thread's): that thread alone.
    const stat = readFileSync(thread === null ? `/proc/${pid}/stat` : `/proc/${pid}/task/${thread}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at field 3; utime and stime are 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Load runs.

/** `200×1234, 503×2` from autocannon's per-status counts. */
function statusSummary(result) {
  return statusCounts(result) || 'none';
}

const failures = [];
const rows = [];
/** How the server treats a load: every given status code other than 2xx and 503 is a failure. */
const BACK_PRESSURE = '503';
const PROBE_TIMEOUT_MS = 30_000;
const VISIBILITY_PROBE_EVERY_MS = 250;
/** Events the server acknowledged (2xx) and events it was handed, over every request sent. */
const ledger = { acknowledged: 0, handedOut: 0, replayed: 0 };

/**
 * A fixed supply of distinct /batch/ bodies. autocannon asks for one per request (setupRequest);
 * running out is a failure, because a replayed body's uuids would be dropped as repeats.
 */
class BodyPool {
  constructor(bodies) {
    this.bodies = bodies;
    this.returned = [];
    this.next = 0;
    this.overrun = 0;
  }

  /** A body whose request was refused (503: nothing stored) goes out again. */
  giveBack(body) {
    this.returned.push(body);
  }

  take() {
    if (this.returned.length > 0) return this.returned.pop();
    if (this.next >= this.bodies.length) {
      this.overrun += 1;
      return this.bodies[this.overrun % this.bodies.length];
    }
    const body = this.bodies[this.next];
    this.next += 1;
    return body;
  }

  get handedOut() {
    return Math.min(this.next, this.bodies.length);
  }
}

/** `count` bodies from `make`, each with fresh uuids; `what` names them in the log. */
async function generateBodies(make, count, what) {
  const started = performance.now();
  const bodies = new Array(count);
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    bodies[i] = make();
    bytes += (bodies[i].body ?? bodies[i]).length;
    // Yield now and then so timers (the watchdog) stay live.
    if (i % 2000 === 1999) await new Promise((resolve) => setImmediate(resolve));
  }
  const seconds = (performance.now() - started) / 1000;
  log(`generated ${count} ${what} (${(bytes / count / 1024).toFixed(1)} KiB each) in ${seconds.toFixed(1)} s`);
  return bodies;
}

/** One phase (warm-up or measured) of one target; `body()` gives each request its body. */
async function runPhase({ label, url, headers, connections, seconds, phase, body, giveBack, eventsPerRequest, serverPid, probes }) {
  let handedOut = 0;
  const options = {
    url,
    method: 'POST',
    headers,
    connections,
    duration: seconds,
    timeout: REQUEST_TIMEOUT_MS / 1000,
    ...(RATE ? { overallRate: Math.max(1, Math.round(RATE / eventsPerRequest)) } : {}),
    requests: [
      {
        setupRequest: (request, context) => {
          handedOut += 1;
          const item = body();
          // A posthog-js flush comes with its visitor's address, as a proxy in front of Hoglet adds it.
          if (item.forwardedFor) {
            request.body = item.body;
            request.headers = { ...request.headers, 'x-forwarded-for': item.forwardedFor };
          } else {
            request.body = item;
          }
          context.body = item;
          return request;
        },
        // A refused request stored nothing: its body (fresh uuids) may be sent again.
        onResponse: (status, _answer, context) => {
          if (String(status) !== BACK_PRESSURE) return;
          handedOut -= 1;
          giveBack?.(context.body);
        },
      },
    ],
  };
  const timed = FLUSH_TIMING && phase === 'measured';
  if (timed) process.kill(serverPid, 'SIGUSR2'); // timed-serve.js: start a window
  const cpuBefore = cpuSecondsOf(serverPid);
  const mainBefore = cpuSecondsOf(serverPid, serverPid);
  const benchCpuBefore = process.cpuUsage();
  const probing = phase === 'measured' && probes && PROBES ? startProbes(probes) : null;
  const { result, latencies } = await runAutocannon(options, RUN_GRACE_MS);
  const probed = probing ? await probing.stop() : null;
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const cpuAfter = cpuSecondsOf(serverPid);
  const mainAfter = cpuSecondsOf(serverPid, serverPid);
  if (timed) {
    log(`${label}: flush timing of the measured run follows`);
    process.kill(serverPid, 'SIGUSR2'); // timed-serve.js: print the window
    await sleep(200);
  }
  const acknowledged = ok2xx(result) * eventsPerRequest;
  ledger.acknowledged += acknowledged;
  ledger.handedOut += handedOut * eventsPerRequest;
  // 503 with Retry-After is capture's answer to overload (nothing of the request stored): counted, not a failure.
  const refusedCount = result.statusCodeStats?.[BACK_PRESSURE]?.count ?? 0;
  const unexpected = { ...result, non2xx: result.non2xx - refusedCount };
  failures.push(...problemsOf(label, phase, unexpected, statusCounts(result, (code) => !code.startsWith('2') && code !== BACK_PRESSURE)));
  return {
    result,
    latencies,
    probed,
    serverCores: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / result.duration,
    /** The server's main thread alone (its JavaScript; chDB and libuv work on other threads). */
    serverMainCores: mainBefore === null || mainAfter === null ? null : (mainAfter - mainBefore) / result.duration,
    benchCores: (benchCpu.user + benchCpu.system) / 1e6 / result.duration,
  };
}

/**
 * Warm-up and measured run of one target at one connection count. Bodies come from a pool
 * generated before each phase (`pooled.make` for each, `pooled.count` of them for a run of
 * `seconds` at `connections`), so the load generator's own work stays out of the measured window.
 */
async function measure({ label, path: urlPath, base, headers, connections, eventsPerRequest, pooled, serverPid, probes }) {
  const url = `${base}${urlPath}`;
  const phases = [
    ['warm-up', WARMUP_SECONDS],
    ['measured', DURATION_SECONDS],
  ];
  let measured;
  for (const [phase, seconds] of phases) {
    const pool = new BodyPool(await generateBodies(pooled.make, pooled.count(seconds, connections), pooled.what));
    log(`${label}, ${connections} connections: ${phase} ${seconds} s`);
    const outcome = await runPhase({
      label: `${label} ×${connections}`,
      url,
      headers,
      connections,
      seconds,
      phase,
      eventsPerRequest,
      serverPid,
      probes,
      body: () => pool.take(),
      giveBack: (returned) => pool.giveBack(returned),
    });
    if (pool.overrun > 0) {
      ledger.replayed += pool.overrun * eventsPerRequest;
      failures.push(
        `${label} ×${connections} (${phase}): the ${pool.bodies.length} pre-generated bodies ran out; ${pool.overrun} requests ` +
          `replayed bodies (raise ${pooled.budget})`,
      );
    }
    outcome.bodiesUsed = `${pool.handedOut} of ${pool.bodies.length}`;
    pool.bodies = []; // let the next run's bodies have the memory
    if (phase === 'measured') measured = outcome;
  }
  const { result, latencies, serverCores, serverMainCores, benchCores, bodiesUsed, probed } = measured;
  const okCount = ok2xx(result);
  const row = {
    label,
    connections,
    duration: result.duration,
    requestsPerSecond: okCount / result.duration,
    eventsPerSecond: (okCount * eventsPerRequest) / result.duration,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    statuses: statusSummary(result),
    errors: result.errors,
    serverCores,
    serverMainCores,
    benchCores,
    bodiesUsed,
    probed,
  };
  log(
    `${label} ×${connections}: ${row.requestsPerSecond.toFixed(0)} req/s, ${row.eventsPerSecond.toFixed(0)} events/s, ` +
      `p50 ${row.p50} ms, p99 ${row.p99} ms, statuses ${row.statuses}, ${row.errors} errors, ` +
      `server ${serverCores?.toFixed(2) ?? '?'} cores (main thread ${serverMainCores?.toFixed(2) ?? '?'}), load generator ${benchCores.toFixed(2)} cores` +
      (bodiesUsed ? `, bodies used ${bodiesUsed}` : ''),
  );
  rows.push(row);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Probes beside the load (measured runs only): how long an acknowledged event takes to show in a
// query, and how long a trend takes, while the server ingests.

/**
 * Visibility: every VISIBILITY_PROBE_EVERY_MS one /e/ event with a fresh uuid; once it is
 * acknowledged, a HogQL count of that uuid is asked until it is 1: the time from the 200 to that
 * answer. Trend: a daily count of one event over 7 days (`refresh: force_blocking`, so never from
 * the cache), one after another.
 */
function startProbes({ base, token, projectId, apiKey }) {
  let running = true;
  const visibility = [];
  const trend = [];
  const api = (body) =>
    fetch(`${base}/api/projects/${projectId}/query/`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${apiKey}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    }).then(async (response) => {
      if (response.status !== 200) throw new Error(`query answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
      return response.json();
    });
  const visibilityLoop = async () => {
    while (running) {
      const uuid = uuidv7();
      const body = JSON.stringify({ api_key: token, event: 'visibility_probe', distinct_id: 'probe', uuid });
      ledger.handedOut += 1;
      const answer = await post(`${base}/e/`, { body, headers: { 'Content-Type': 'application/json' } });
      if (answer.status === 200) {
        ledger.acknowledged += 1;
        const acknowledgedAt = performance.now();
        for (;;) {
          // The event name narrows the read to the probe's own granules (events are ordered by day and event).
          const { results } = await api({
            query: { kind: 'HogQLQuery', query: `SELECT count() FROM events WHERE event = 'visibility_probe' AND timestamp > now() - INTERVAL 1 HOUR AND uuid = '${uuid}'` },
          });
          if (Number(results[0][0]) === 1) break;
          if (performance.now() - acknowledgedAt > PROBE_TIMEOUT_MS) throw new Error(`event ${uuid} not visible ${PROBE_TIMEOUT_MS} ms after its 200`);
          await sleep(10);
        }
        visibility.push(performance.now() - acknowledgedAt);
      }
      await sleep(VISIBILITY_PROBE_EVERY_MS);
    }
  };
  const trendLoop = async () => {
    const series = 'api_request'; // the commonest event of the load (45 %)
    while (running) {
      const started = performance.now();
      await api({
        refresh: 'force_blocking',
        query: { kind: 'TrendsQuery', series: [{ kind: 'EventsNode', event: series, math: 'total' }], interval: 'day', dateRange: { date_from: '-7d' } },
      });
      trend.push(performance.now() - started);
      await sleep(100);
    }
  };
  const loops = [visibilityLoop(), trendLoop()].map((loop) => loop.catch((error) => failures.push(`probe: ${error.message}`)));
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      const summary = (samples) => {
        const sorted = Float64Array.from(samples).sort();
        return { count: samples.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
      };
      return { visibility: summary(visibility), trend: summary(trend) };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Floor: EventStore.insert straight from this process.

let floor = null;

async function benchFloor() {
  const { formatMicros } = await loadStoreModules();
  const dataDir = makeTempDir('hoglet-bench-floor-');
  const factory = new EventFactory({ users: USERS, seed: 7 });
  const personIds = Array.from({ length: USERS }, () => uuidv7());
  const makeRows = () => {
    const nowMs = Date.now();
    const createdAt = formatMicros(nowMs * 1000);
    const batch = new Array(FLOOR_ROWS_PER_INSERT);
    for (let i = 0; i < FLOOR_ROWS_PER_INSERT; i++) {
      const user = factory.user();
      const event = factory.event(nowMs, user);
      // The row capture would write for this event (EventRow in src/storage/events/events-repository.ts).
      batch[i] = {
        uuid: event.uuid,
        team_id: 1,
        event: event.event,
        distinct_id: event.distinct_id,
        person_id: personIds[user],
        properties: JSON.stringify(event.properties),
        timestamp: formatMicros(Date.parse(event.timestamp) * 1000),
        created_at: createdAt,
        $session_id: '',
        $group_0: '',
        $group_1: '',
        $group_2: '',
        $group_3: '',
        $group_4: '',
        elements_chain: '',
        historical_migration: false,
      };
    }
    return batch;
  };

  log(`floor: opening an event store in ${dataDir}`);
  const store = await openStore(dataDir);
  try {
    const insert = (batch) => withTimeout(store.insert('events', batch), STORE_TIMEOUT_MS, 'a floor insert');
    log(`floor: warm-up (${WARMUP_SECONDS} s of inserts)`);
    const warmupEnd = performance.now() + WARMUP_SECONDS * 1000;
    while (performance.now() < warmupEnd) await insert(makeRows());

    log(`floor: measuring ${DURATION_SECONDS} s of inserts of ${FLOOR_ROWS_PER_INSERT} rows`);
    const latencies = [];
    let insertMs = 0;
    let inserted = 0;
    const wallStart = performance.now();
    while (insertMs < DURATION_SECONDS * 1000) {
      const batch = makeRows(); // made outside the timed part: the floor is the insert alone
      const started = performance.now();
      await insert(batch);
      const elapsed = performance.now() - started;
      latencies.push(elapsed);
      insertMs += elapsed;
      inserted += batch.length;
    }
    const wallSeconds = (performance.now() - wallStart) / 1000;
    const [{ stored }] = await withTimeout(
      store.query('SELECT count() AS stored FROM hoglet.events'),
      STORE_TIMEOUT_MS,
      'counting floor rows',
    );
    const sorted = Float64Array.from(latencies).sort();
    floor = {
      rows: inserted,
      inserts: latencies.length,
      insertSeconds: insertMs / 1000,
      wallSeconds,
      rowsPerSecond: inserted / (insertMs / 1000),
      p50: percentile(sorted, 50),
      p99: percentile(sorted, 99),
      stored: Number(stored),
    };
    log(
      `floor: ${floor.rowsPerSecond.toFixed(0)} rows/s over ${floor.inserts} inserts ` +
        `(insert p50 ${floor.p50} ms, p99 ${floor.p99} ms); ${floor.stored} rows stored with warm-up`,
    );
    rows.push({
      label: `floor: \`EventStore.insert\` of ${fmtInt(FLOOR_ROWS_PER_INSERT)}-row batches, in process`,
      connections: null,
      duration: floor.insertSeconds,
      requestsPerSecond: floor.inserts / floor.insertSeconds,
      eventsPerSecond: floor.rowsPerSecond,
      p50: floor.p50,
      p99: floor.p99,
      statuses: '—',
      errors: 0,
      serverCores: null,
      serverMainCores: null,
      benchCores: null,
    });
  } finally {
    await withTimeout(store.close(), STORE_TIMEOUT_MS, 'closing the floor event store');
    removeTempDir(dataDir);
  }
}

// ---------------------------------------------------------------------------------------------
// Decoding cost: what gunzip + JSON.parse of one body costs, measured here on the same bodies.

let decodeCost = null;

function measureDecode(factory, token) {
  const bodies = Array.from({ length: 500 }, () => factory.batchBody(token, EVENTS_PER_BATCH));
  let sink = 0;
  const time = (fn) => {
    for (const body of bodies.slice(0, 50)) sink += fn(body); // warm the JIT
    const started = performance.now();
    for (const body of bodies) sink += fn(body);
    return ((performance.now() - started) * 1000) / bodies.length;
  };
  const gunzipUs = time((body) => gunzipSync(body).length);
  const texts = bodies.map((body) => gunzipSync(body).toString('utf8'));
  let i = 0;
  const parseUs = time(() => JSON.parse(texts[i++ % texts.length]).batch.length);
  decodeCost = {
    gunzipUs,
    parseUs,
    gzipBytes: bodies.reduce((sum, body) => sum + body.length, 0) / bodies.length,
    jsonBytes: texts.reduce((sum, text) => sum + text.length, 0) / texts.length,
  };
  if (sink < 0) log('unreachable');
}

// ---------------------------------------------------------------------------------------------
// Hoglet.

let memory = null;
let verification = null;

async function post(url, { body, headers }) {
  const response = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  return { status: response.status, text: await response.text() };
}

async function benchHoglet() {
  const dataDir = makeTempDir('hoglet-bench-ingest-');
  let handle;
  let ids;
  let stopProblem = null;
  try {
    ids = await bootstrapHoglet(dataDir, ['project_api_token', 'project_id', 'personal_api_key'], BOOTSTRAP_TIMEOUT_MS);
    const token = ids.project_api_token;

    const port = await freePort();
    const entry = FLUSH_TIMING ? [TIMED_SERVE] : [HOGLET_BIN, 'serve'];
    handle = startChild('hoglet', [
      ...SERVER_NODE_FLAGS, ...entry, '--data-dir', dataDir, '--port', String(port), '--host', HOST, '--log-level', 'warn',
    ], { echo: FLUSH_TIMING });
    const base = `http://${HOST}:${port}`;
    await waitForReady(handle, `${base}/_health`, READY_TIMEOUT_MS);
    const pid = handle.child.pid;
    await sleep(IDLE_SETTLE_MS);
    const idle = memoryOf(pid);
    log(`hoglet (pid ${pid}) idle: RSS ${idle.rss?.toFixed(0)} MiB`);

    const factory = new EventFactory({ users: USERS, seed: 42, ips: GEOIP !== '' });
    const web = WEB ? new WebEventFactory({ visitors: WEB_VISITORS, seed: 42, perRequest: WEB_EVENTS_PER_REQUEST }) : null;
    measureDecode(new EventFactory({ users: USERS, seed: 1 }), token);

    const batchHeaders = {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
      'User-Agent': USER_AGENT,
    };
    const singleHeaders = { 'Content-Type': 'application/json', 'User-Agent': USER_AGENT };
    // posthog-js posts its gzip'd queue as text/plain (a simple request: no CORS preflight).
    const webHeaders = { 'Content-Type': 'text/plain', 'User-Agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0' };
    const batchTarget = web
      ? {
        label: `\`POST ${WEB_PATH}\`, posthog-js ${WEB_LIB_VERSION}-shaped, ${WEB_EVENTS_PER_REQUEST} events, X-Forwarded-For`,
        path: WEB_PATH,
        headers: webHeaders,
        eventsPerRequest: WEB_EVENTS_PER_REQUEST,
        make: () => web.requestBody(token),
        what: `gzip'd posthog-js flushes of ${WEB_EVENTS_PER_REQUEST} events`,
      }
      : {
        label: `\`POST /batch/\`, gzip, ${EVENTS_PER_BATCH} events`,
        path: '/batch/',
        headers: batchHeaders,
        eventsPerRequest: EVENTS_PER_BATCH,
        make: () => factory.batchBody(token, EVENTS_PER_BATCH),
        what: `gzip'd bodies of ${EVENTS_PER_BATCH} events`,
      };
    const probes = { base, token, projectId: ids.project_id, apiKey: ids.personal_api_key };

    // Check both endpoints answer what we think before loading them (these events count too).
    const first = batchTarget.make();
    for (const [urlPath, body, headers, events] of [
      [batchTarget.path, first.body ?? first, first.forwardedFor ? { ...batchTarget.headers, 'X-Forwarded-For': first.forwardedFor } : batchTarget.headers, batchTarget.eventsPerRequest],
      ...(web ? [] : [['/e/', factory.singleBody(token), singleHeaders, 1]]),
    ]) {
      ledger.handedOut += events;
      const answer = await post(`${base}${urlPath}`, { body, headers });
      if (answer.status !== 200 || answer.text !== '{"status":1}') {
        throw new Error(`POST ${urlPath}: expected 200 {"status":1}, got ${answer.status} ${answer.text.slice(0, 500)}`);
      }
      ledger.acknowledged += events;
    }

    for (const connections of CONNECTIONS) {
      await measure({
        label: batchTarget.label,
        path: batchTarget.path,
        base,
        headers: batchTarget.headers,
        connections,
        eventsPerRequest: batchTarget.eventsPerRequest,
        pooled: {
          make: batchTarget.make,
          count: bodiesFor,
          what: batchTarget.what,
          budget: `BENCH_BODY_BUDGET_EPS above ${BODY_BUDGET_EPS}`,
        },
        serverPid: pid,
        probes,
      });
    }
    for (const connections of ENDPOINTS.includes('e') ? CONNECTIONS : []) {
      await measure({
        label: '`POST /e/`, JSON, 1 event',
        path: '/e/',
        base,
        headers: singleHeaders,
        connections,
        eventsPerRequest: 1,
        pooled: {
          make: () => factory.singleBody(token),
          count: singleBodiesFor,
          what: 'single-event JSON bodies',
          budget: `BENCH_SINGLE_BUDGET_RPS above ${SINGLE_BUDGET_RPS}`,
        },
        serverPid: pid,
        probes,
      });
    }

    const after = memoryOf(pid);
    memory = { idleRss: idle.rss, peak: after.hwm, afterRss: after.rss };
    log(`hoglet after the runs: RSS ${after.rss?.toFixed(0)} MiB, peak (VmHWM) ${after.hwm?.toFixed(0)} MiB`);
  } finally {
    if (handle) {
      log('stopping hoglet (SIGTERM)');
      stopProblem = await stopChild(handle, STOP_TIMEOUT_MS);
      if (stopProblem) failures.push(stopProblem);
      if (!FLUSH_TIMING) showLeftoverOutput(handle); // with timing it was echoed already
    }
  }

  try {
    // Only a cleanly stopped server has released its event store; otherwise counting proves nothing.
    if (handle && !stopProblem) await verify(dataDir, Number(ids.project_id));
  } finally {
    removeTempDir(dataDir);
  }
}

/** Every acknowledged event is stored once; nothing is stored that was not sent. */
async function verify(dataDir, projectId) {
  log('verifying: counting the stored events in the server\'s event store');
  const store = await openStore(dataDir);
  try {
    const [counts] = await withTimeout(
      store.query(
        // located: events GeoIP gave a place (a check that BENCH_GEOIP and X-Forwarded-For took effect).
        "SELECT count() AS stored, uniqExact(uuid) AS distinct_uuids, countIf(position(properties, '\"$geoip_country_code\"') > 0) AS located FROM hoglet.events WHERE team_id = {team:UInt64}",
        { team: projectId },
      ),
      STORE_TIMEOUT_MS,
      'counting stored events',
    );
    verification = {
      stored: Number(counts.stored),
      distinctUuids: Number(counts.distinct_uuids),
      located: Number(counts.located),
      acknowledged: ledger.acknowledged,
      handedOut: ledger.handedOut,
    };
  } finally {
    await withTimeout(store.close(), STORE_TIMEOUT_MS, 'closing the server\'s event store');
  }
  const v = verification;
  log(`stored ${v.stored} events (${v.distinctUuids} distinct uuids); acknowledged ${v.acknowledged}; handed to the load generator ${v.handedOut}`);
  if (v.stored < v.acknowledged) {
    const replays = ledger.replayed > 0 ? ` (up to ${ledger.replayed} of them were replayed bodies, rightly dropped as repeats)` : '';
    failures.push(`verification: ${v.acknowledged - v.stored} acknowledged events are not stored${replays}`);
  }
  if (v.stored > v.handedOut) failures.push(`verification: ${v.stored - v.handedOut} more events stored than were sent`);
  if (v.distinctUuids !== v.stored) failures.push(`verification: ${v.stored - v.distinctUuids} events are stored more than once`);
}

// ---------------------------------------------------------------------------------------------
// Report.

const fmtInt = (n) => Math.round(n).toLocaleString('en').replace(/,/g, ' ');
const fmtMiB = (n) => (n === null || n === undefined ? 'n/a' : `${n.toFixed(0)} MiB`);

/** The env knobs this script reads, in the order the report's command line lists them. */
const INGEST_ENV = [
  'BENCH_DURATION', 'BENCH_CONNECTIONS', 'BENCH_BODY_BUDGET_EPS', 'BENCH_SERVER_NODE_FLAGS', 'BENCH_FLUSH_TIMING', 'BENCH_GEOIP', 'BENCH_ENDPOINTS', 'BENCH_FLOOR', 'BENCH_RATE', 'BENCH_PROBES', 'BENCH_SHAPE', 'BENCH_WEB_VISITORS',
];

/** CPU µs per acknowledged event (at a fixed BENCH_RATE, the server's cost per event). */
const perEvent = (cores, row) => (cores === null || cores === undefined || row.eventsPerSecond === 0 ? '—' : ((cores * 1e6) / row.eventsPerSecond).toFixed(1));

function report() {
  const lines = [
    '## Ingest benchmark results',
    '',
    `- Machine: ${coresDescription()}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ` +
      `${os.platform()} ${os.arch()}, Node ${process.version}, chdb ${packageVersion('chdb')}`,
    `- Command: \`${commandLine(INGEST_ENV, 'bench/ingest/run.js', { quoteSpaces: true })}\` (after \`npm run build\`; or \`npm run bench:ingest\`)`,
    `- Load: autocannon ${packageVersion('autocannon')}, ${WARMUP_SECONDS} s warm-up then ${DURATION_SECONDS} s measured per row; ` +
      (WEB
        ? `posthog-js ${WEB_LIB_VERSION}-shaped events (no \`$ip\`) from ${fmtInt(WEB_VISITORS)} visitors, each request one visitor's flush with its public address in X-Forwarded-For, fresh uuids in every request` +
          (GEOIP ? `, GeoIP **${GEOIP}**` : '')
        : `posthog-node ${packageVersion('posthog-node')}-shaped events from ${fmtInt(USERS)} users, fresh uuids in every request` +
          (GEOIP ? `; each user's events carry a public \`$ip\` of theirs, GeoIP **${GEOIP}**` : '')),
    '- req/s and events/s: 2xx responses (× events per request) ÷ measured seconds; p50/p99: latency of every 2xx response; ' +
      'floor row: rows ÷ seconds spent inside `insert`, p50/p99 per insert',
    '- server cores: CPU seconds of the server process ÷ measured seconds (the load generator shares the same cores); ' +
      'µs per event: those CPU seconds ÷ events acknowledged, for the whole process and for its main thread (the JavaScript; chDB and libuv work on other threads)',
    '',
    '| target | connections | duration s | req/s | events/s | p50 ms | p99 ms | ratio to floor | statuses | errors | server cores | server µs per event | main thread µs per event |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const share = floor ? row.eventsPerSecond / floor.rowsPerSecond : null;
    const ratio = share === null ? 'n/a' : share.toFixed(share < 0.1 ? 3 : 2);
    lines.push(
      `| ${row.label} | ${row.connections ?? '—'} | ${row.duration.toFixed(1)} | ${fmtInt(row.requestsPerSecond)} | ` +
        `${fmtInt(row.eventsPerSecond)} | ${fmtMs(row.p50)} | ${fmtMs(row.p99)} | ${ratio} | ${row.statuses} | ${row.errors} | ` +
        `${row.serverCores === null ? '—' : row.serverCores.toFixed(2)} | ` +
        `${perEvent(row.serverCores, row)} | ${perEvent(row.serverMainCores, row)} |`,
    );
  }
  lines.push('');
  const probedRows = rows.filter((row) => row.probed);
  if (probedRows.length > 0) {
    lines.push(
      'Beside each measured run: **visible** = from the 200 of a probe event (one every ' +
        `${VISIBILITY_PROBE_EVERY_MS} ms) to a HogQL count that includes it; **trend** = a 7-day daily trend with \`refresh: force_blocking\`, one after another.`,
      '',
      '| target | connections | visible: probes | p50 ms | p99 ms | trend: queries | p50 ms | p99 ms |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const row of probedRows) {
      const { visibility: v, trend: t } = row.probed;
      lines.push(`| ${row.label} | ${row.connections} | ${v.count} | ${fmtMs(v.p50)} | ${fmtMs(v.p99)} | ${t.count} | ${fmtMs(t.p50)} | ${fmtMs(t.p99)} |`);
    }
    lines.push('');
  }
  const batchRows = rows.filter((row) => row.label.includes('/batch/'));
  if (batchRows.length > 0) {
    const best = batchRows.reduce((a, b) => (b.eventsPerSecond > a.eventsPerSecond ? b : a));
    const met = best.eventsPerSecond >= AIM_EVENTS_PER_SECOND;
    lines.push(
      `- Aim, at least ${fmtInt(AIM_EVENTS_PER_SECOND)} events/s through \`/batch/\`: **${met ? 'met' : 'not met'}** ` +
        `(best ${fmtInt(best.eventsPerSecond)} events/s with ${best.connections} connections)`,
    );
  }
  if (memory) {
    lines.push(
      `- Server memory: RSS ${fmtMiB(memory.idleRss)} idle after start; peak (VmHWM) ${fmtMiB(memory.peak)}; ` +
        `RSS ${fmtMiB(memory.afterRss)} after the runs`,
    );
  }
  if (verification) {
    const v = verification;
    const good = v.stored >= v.acknowledged && v.stored <= v.handedOut && v.distinctUuids === v.stored;
    lines.push(
      `- Verification (${good ? 'passed' : 'FAILED'}): ${fmtInt(v.stored)} events stored (${fmtInt(v.distinctUuids)} distinct uuids) ` +
        `for ${fmtInt(v.acknowledged)} acknowledged and ${fmtInt(v.handedOut)} handed to the load generator, warm-ups included ` +
        `(requests cut off at the end of a run may be stored without being acknowledged); ${fmtInt(v.located)} of them located by GeoIP`,
    );
  }
  if (decodeCost) {
    const d = decodeCost;
    lines.push(
      `- Decoding one ${EVENTS_PER_BATCH}-event body in one thread (${(d.gzipBytes / 1024).toFixed(1)} KiB gzip, ${(d.jsonBytes / 1024).toFixed(1)} KiB JSON): ` +
        `gunzip ${d.gunzipUs.toFixed(0)} µs + JSON.parse ${d.parseUs.toFixed(0)} µs ` +
        `(${fmtInt((EVENTS_PER_BATCH * 1e6) / (d.gunzipUs + d.parseUs))} events/s per core for these two steps alone)`,
    );
  }
  if (floor) {
    lines.push(
      `- Floor: ${fmtInt(floor.rows)} rows in ${floor.inserts} inserts, ${floor.insertSeconds.toFixed(1)} s inside \`insert\` ` +
        `(${floor.wallSeconds.toFixed(1)} s with making the rows)`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

// ---------------------------------------------------------------------------------------------

await runAndExit(FLOOR ? [benchFloor, benchHoglet] : [benchHoglet], { rows, failures, report });
