// API benchmark: Hoglet's project endpoints against a bare Fastify 5 hello world (the floor).
//
//   npm run bench:api                        (builds dist/ first)
//   node bench/api/run.js                    (uses the dist/ already built)
//   BENCH_DURATION=30 BENCH_CONNECTIONS=50 node bench/api/run.js
//
// Each server runs in its own child process, one at a time; the load generator (autocannon, used
// programmatically) runs in this process. Every target gets a 2 s warm-up, then a measured run of
// BENCH_DURATION seconds (default 10) with BENCH_CONNECTIONS connections (default 10). Any non-2xx
// response or connection error/timeout, in warm-up or measured run, fails the benchmark (exit 1)
// after the table is printed. Progress goes to stderr; the Markdown report goes to stdout.
//
// Child processes are stopped and the temporary data directory removed on every exit path.
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import {
  HOGLET_BIN,
  HOST,
  bootstrapHoglet,
  commandLine,
  coresDescription,
  envNumber,
  fmtMs,
  freePort,
  installCleanup,
  log,
  makeTempDir,
  packageVersion,
  percentile,
  problemsOf,
  removeTempDir,
  runAndExit,
  runAutocannon,
  showLeftoverOutput,
  startChild,
  stopChild,
  waitForReady,
} from '../lib/harness.js';

/** Extra `node` flags for the server, for diagnosis only, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`. */
const SERVER_NODE_FLAGS = (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const HELLO_SERVER = fileURLToPath(new URL('./hello-server.js', import.meta.url));

const WARMUP_SECONDS = 2;
const DURATION_SECONDS = envNumber('BENCH_DURATION', 10, { integer: false });
const CONNECTIONS = envNumber('BENCH_CONNECTIONS', 10, { integer: true });
const EXTRA_PROJECTS = 20;

// Bounds on every wait.
const BOOTSTRAP_TIMEOUT_MS = 30_000;
const READY_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;
const RUN_GRACE_MS = 30_000; // on top of the run's own duration
const TARGET_COUNT = 5;
const INSIGHT_EVENTS = 2_000;
const OVERALL_TIMEOUT_MS = TARGET_COUNT * (WARMUP_SECONDS + DURATION_SECONDS) * 1000 + TARGET_COUNT * RUN_GRACE_MS + 120_000;

installCleanup({ overallTimeoutMs: OVERALL_TIMEOUT_MS, stopping: 'servers' });

// ---------------------------------------------------------------------------------------------
// HTTP helpers.

async function requestJson(method, url, { headers = {}, body, expectStatus }) {
  const response = await fetch(url, {
    method,
    headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await response.text();
  if (response.status !== expectStatus) {
    throw new Error(`${method} ${url}: expected ${expectStatus}, got ${response.status}: ${text.slice(0, 500)}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(`${method} ${url}: response is not JSON: ${text.slice(0, 500)}`);
  }
}

const failures = [];
const rows = [];

async function measure(target) {
  const options = {
    url: target.url,
    method: 'GET',
    headers: target.headers ?? {},
    connections: CONNECTIONS,
    timeout: REQUEST_TIMEOUT_MS / 1000,
  };
  log(`${target.label}: warm-up ${WARMUP_SECONDS} s`);
  const warmup = await runAutocannon({ ...options, duration: WARMUP_SECONDS }, RUN_GRACE_MS);
  failures.push(...problemsOf(target.label, 'warm-up', warmup.result));
  log(`${target.label}: measuring ${DURATION_SECONDS} s with ${CONNECTIONS} connections`);
  const { result, latencies } = await runAutocannon({ ...options, duration: DURATION_SECONDS }, RUN_GRACE_MS);
  failures.push(...problemsOf(target.label, 'measured', result));
  const row = {
    label: target.label,
    requestsPerSecond: result.requests.average,
    totalRequests: result.requests.total,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    non2xx: result.non2xx,
    errors: result.errors,
  };
  log(
    `${target.label}: ${row.requestsPerSecond.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, ` +
      `${row.non2xx} non-2xx, ${row.errors} errors`,
  );
  rows.push(row);
  return row;
}

// ---------------------------------------------------------------------------------------------
// The targets.

async function benchFloor() {
  const port = await freePort();
  const handle = startChild('hello-server', [HELLO_SERVER, '--port', String(port), '--host', HOST]);
  try {
    const url = `http://${HOST}:${port}/`;
    await waitForReady(handle, url, READY_TIMEOUT_MS);
    const body = await requestJson('GET', url, { expectStatus: 200 });
    if (body.hello !== 'world') throw new Error(`hello-server answered ${JSON.stringify(body)}`);
    await measure({ label: 'floor: bare Fastify 5 hello world (`GET /`)', url });
  } finally {
    const problem = await stopChild(handle, STOP_TIMEOUT_MS);
    if (problem) failures.push(problem);
  }
}

async function benchHoglet() {
  const dataDir = makeTempDir('hoglet-bench-');
  let handle;
  try {
    const ids = await bootstrapHoglet(dataDir, ['organization_id', 'project_id', 'personal_api_key', 'project_api_token'], BOOTSTRAP_TIMEOUT_MS);

    const port = await freePort();
    handle = startChild('hoglet', [
      ...SERVER_NODE_FLAGS, HOGLET_BIN, 'serve', '--data-dir', dataDir, '--port', String(port), '--host', HOST, '--log-level', 'warn',
    ]);
    const base = `http://${HOST}:${port}`;
    await waitForReady(handle, `${base}/_health`, READY_TIMEOUT_MS);

    const headers = { authorization: `Bearer ${ids.personal_api_key}` };
    const collection = `${base}/api/organizations/${ids.organization_id}/projects/`;
    const item = `${collection}${ids.project_id}/`;

    log(`creating ${EXTRA_PROJECTS} projects`);
    for (let n = 1; n <= EXTRA_PROJECTS; n += 1) {
      await requestJson('POST', collection, { headers, body: { name: `Bench ${n}` }, expectStatus: 201 });
    }

    // Check that both endpoints answer what we think before loading them.
    const project = await requestJson('GET', item, { headers, expectStatus: 200 });
    if (String(project.id) !== String(ids.project_id)) {
      throw new Error(`project retrieve returned id ${project.id}, expected ${ids.project_id}`);
    }
    const list = await requestJson('GET', collection, { headers, expectStatus: 200 });
    if (!Array.isArray(list.results) || list.count < EXTRA_PROJECTS + 1 || list.results.length !== list.count) {
      throw new Error(`project list returned count ${list.count} with ${list.results?.length} results; expected ${EXTRA_PROJECTS + 1}`);
    }

    await measure({
      label: 'project retrieve (`GET /api/organizations/:org/projects/:id/`)',
      url: item,
      headers,
    });
    await measure({
      label: `project list, ${list.count} projects (\`GET /api/organizations/:org/projects/\`)`,
      url: collection,
      headers,
    });

    // A saved trends insight over captured events, calculated once, then retrieved with the
    // default refresh mode (force_cache): the cached read every dashboard view makes.
    const insightUrl = await prepareCachedInsight(base, ids, headers);
    await measure({ label: 'cached insight retrieve (`GET /api/projects/:id/insights/:id/`)', url: insightUrl, headers });
    const constant = await requestJson('GET', insightUrl, { headers, expectStatus: 200 });
    insightFloor = { route: new URL(insightUrl).pathname, body: constant };
  } finally {
    if (handle) {
      const problem = await stopChild(handle, STOP_TIMEOUT_MS);
      if (problem) failures.push(problem);
      showLeftoverOutput(handle);
    }
    removeTempDir(dataDir);
  }
}

/** The insight retrieved in the Hoglet run, for the constant-route floor. */
let insightFloor = null;

async function prepareCachedInsight(base, ids, headers) {
  const start = Date.parse('2024-01-01T00:00:00Z');
  const batch = Array.from({ length: INSIGHT_EVENTS }, (_, i) => ({
    event: i % 3 === 0 ? 'signup' : '$pageview',
    distinct_id: `user-${i % 200}`,
    timestamp: new Date(start + (i % 30) * 86_400_000 + i * 1000).toISOString(),
    properties: { $browser: ['Chrome', 'Firefox', 'Safari'][Math.floor(i / 3) % 3] },
  }));
  await requestJson('POST', `${base}/batch/`, { body: { api_key: ids.project_api_token, batch }, expectStatus: 200 });
  const query = {
    kind: 'InsightVizNode',
    source: {
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: '$pageview', math: 'dau' }],
      dateRange: { date_from: '2024-01-01', date_to: '2024-01-30' },
      breakdownFilter: { breakdown: '$browser', breakdown_type: 'event' },
    },
  };
  const created = await requestJson('POST', `${base}/api/projects/${ids.project_id}/insights/`, { headers, body: { name: 'Bench pageviews', query }, expectStatus: 201 });
  const url = `${base}/api/projects/${ids.project_id}/insights/${created.id}/`;
  const calculated = await requestJson('GET', `${url}?refresh=blocking`, { headers, expectStatus: 200 });
  if (!Array.isArray(calculated.result) || calculated.result.length !== 6) throw new Error(`insight result has ${calculated.result?.length} series, expected 6`);
  const cached = await requestJson('GET', url, { headers, expectStatus: 200 });
  if (cached.is_cached !== true || JSON.stringify(cached.result) !== JSON.stringify(calculated.result)) throw new Error('the insight was not served from the cache');
  return url;
}

/** The floor for the insight: the same route on bare Fastify, answering the same body as a constant. */
async function benchConstantInsight() {
  if (!insightFloor) throw new Error('the Hoglet run did not record an insight body');
  const dir = makeTempDir('hoglet-bench-floor-');
  const bodyFile = `${dir}/insight.json`;
  const fs = await import('node:fs');
  fs.writeFileSync(bodyFile, JSON.stringify(insightFloor.body));
  const port = await freePort();
  const route = insightFloor.route.replace(/\/projects\/\d+\/insights\/\d+\//, '/projects/:project_id/insights/:id/');
  const handle = startChild('hello-server', [HELLO_SERVER, '--port', String(port), '--host', HOST, '--route', route, '--body-file', bodyFile]);
  try {
    const url = `http://${HOST}:${port}${insightFloor.route}`;
    await waitForReady(handle, `http://${HOST}:${port}/`, READY_TIMEOUT_MS);
    await measure({ label: 'floor: the same insight route answering the same body as a constant', url });
  } finally {
    const problem = await stopChild(handle, STOP_TIMEOUT_MS);
    if (problem) failures.push(problem);
    removeTempDir(dir);
  }
}

// ---------------------------------------------------------------------------------------------
// Report.

function report() {
  const floor = rows.find((row) => row.label.startsWith('floor'));
  const lines = [
    '## API benchmark results',
    '',
    `- Machine: ${coresDescription()}, ${os.platform()} ${os.arch()}, Node ${process.version}`,
    `- Command: \`${commandLine(['BENCH_DURATION', 'BENCH_CONNECTIONS'], 'bench/api/run.js')}\` (after \`npm run build\`; or \`npm run bench:api\`)`,
    `- Load: autocannon ${packageVersion('autocannon')}, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up then ${DURATION_SECONDS} s measured, per target`,
    '- req/s: autocannon\'s average of per-second counts; p50/p99: latency of every 2xx response in the measured run',
    '',
    '| target | req/s | p50 ms | p99 ms | ratio to floor | non-2xx | errors |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  const insightFloorRow = rows.find((row) => row.label.startsWith('floor: the same insight route'));
  for (const row of rows) {
    const against = row.label.startsWith('cached insight') ? insightFloorRow : floor;
    const ratio = against ? (row.requestsPerSecond / against.requestsPerSecond).toFixed(2) : 'n/a';
    lines.push(
      `| ${row.label} | ${Math.round(row.requestsPerSecond)} | ${fmtMs(row.p50)} | ${fmtMs(row.p99)} | ${ratio} | ${row.non2xx} | ${row.errors} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

// ---------------------------------------------------------------------------------------------

await runAndExit([benchFloor, benchHoglet, benchConstantInsight], { rows, failures, report });
