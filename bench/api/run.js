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
import autocannon from 'autocannon';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOGLET_BIN = path.join(ROOT, 'bin', 'hoglet.js');
const HELLO_SERVER = fileURLToPath(new URL('./hello-server.js', import.meta.url));
const HOST = '127.0.0.1';

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
const TARGET_COUNT = 3;
const OVERALL_TIMEOUT_MS = TARGET_COUNT * (WARMUP_SECONDS + DURATION_SECONDS) * 1000 + TARGET_COUNT * RUN_GRACE_MS + 120_000;

function envNumber(name, fallback, { integer }) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    process.stderr.write(`bench: ${name} must be a positive ${integer ? 'integer' : 'number'} (got ${JSON.stringify(raw)})\n`);
    process.exit(2);
  }
  return value;
}

const log = (message) => process.stderr.write(`bench: ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Cleanup: whatever happens, children are killed and the temp dir is removed.

const liveChildren = new Set();
const tempDirs = new Set();

function cleanupSync() {
  for (const child of liveChildren) {
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  liveChildren.clear();
  for (const dir of tempDirs) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // best effort at exit
    }
  }
  tempDirs.clear();
}

process.on('exit', cleanupSync);
for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
  process.once(signal, () => {
    log(`received ${signal}; stopping servers and removing temp data`);
    cleanupSync();
    process.exit(128 + number);
  });
}

const watchdog = setTimeout(() => {
  log(`FAILED: the whole benchmark took longer than ${Math.round(OVERALL_TIMEOUT_MS / 1000)} s; giving up`);
  cleanupSync();
  process.exit(1);
}, OVERALL_TIMEOUT_MS);
watchdog.unref();

// ---------------------------------------------------------------------------------------------
// Child processes.

async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts `node <args>` in the repository root, keeping the tail of its output for diagnostics. */
function startChild(name, args) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  liveChildren.add(child);
  let tail = '';
  let bytes = 0;
  const keep = (chunk) => {
    bytes += chunk.length;
    tail = (tail + chunk).slice(-8192);
  };
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  let exitInfo = null;
  const exited = new Promise((resolve) => {
    child.once('error', (error) => {
      liveChildren.delete(child);
      exitInfo ??= { code: null, signal: null, error };
      resolve(exitInfo);
    });
    child.once('exit', (code, signal) => {
      liveChildren.delete(child);
      exitInfo ??= { code, signal };
      resolve(exitInfo);
    });
  });
  return {
    name,
    child,
    exited,
    exitInfo: () => exitInfo,
    output: () => tail,
    outputBytes: () => bytes,
  };
}

function describeExit(info) {
  if (!info) return 'still running';
  if (info.error) return `failed to start: ${info.error.message}`;
  return info.signal ? `killed by ${info.signal}` : `exit code ${info.code}`;
}

async function waitForReady(handle, url) {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  let lastProblem = 'no answer yet';
  for (;;) {
    const info = handle.exitInfo();
    if (info) {
      throw new Error(`${handle.name} stopped before it was ready (${describeExit(info)}). Its output:\n${handle.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      lastProblem = `status ${response.status}`;
    } catch (error) {
      lastProblem = error.cause?.code ?? error.message;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${handle.name} not ready at ${url} within ${READY_TIMEOUT_MS / 1000} s (${lastProblem}). Its output:\n${handle.output()}`,
      );
    }
    await sleep(100);
  }
}

/** SIGTERM, then SIGKILL if it does not exit in time. Returns a problem description, or null. */
async function stopChild(handle) {
  if (!handle.exitInfo()) {
    handle.child.kill('SIGTERM');
    const stopped = await Promise.race([handle.exited, sleep(STOP_TIMEOUT_MS).then(() => null)]);
    if (!stopped) {
      handle.child.kill('SIGKILL');
      await Promise.race([handle.exited, sleep(2000)]);
      return `${handle.name} did not exit within ${STOP_TIMEOUT_MS / 1000} s of SIGTERM; killed`;
    }
  }
  const info = await handle.exited;
  if (info.error || info.code !== 0) return `${handle.name} did not exit cleanly on SIGTERM (${describeExit(info)})`;
  return null;
}

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

/**
 * One autocannon run. Besides autocannon's own result, returns the latency of every 2xx response
 * in milliseconds with sub-millisecond precision: autocannon's histogram keeps whole milliseconds
 * only, which reads as "0 ms" for anything this fast.
 */
async function runAutocannon(options) {
  let instance;
  const latencies = [];
  const run = new Promise((resolve, reject) => {
    instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  });
  const limitMs = options.duration * 1000 + RUN_GRACE_MS;
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      instance?.stop();
      reject(new Error(`autocannon run against ${options.url} did not finish within ${limitMs / 1000} s`));
    }, limitMs);
  });
  try {
    const result = await Promise.race([run, timeout]);
    return { result, latencies: Float64Array.from(latencies).sort() };
  } finally {
    clearTimeout(timer);
  }
}

/** Nearest-rank percentile of sorted samples, in ms rounded to 0.01; null without samples. */
function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[index] * 100) / 100;
}

/** Problems in an autocannon result: any non-2xx, error or timeout. */
function problemsOf(label, phase, result) {
  const problems = [];
  if (result.non2xx > 0) {
    const codes = Object.entries(result.statusCodeStats ?? {})
      .filter(([code]) => !code.startsWith('2'))
      .map(([code, { count }]) => `${code}×${count}`)
      .join(', ');
    problems.push(`${label} (${phase}): ${result.non2xx} non-2xx responses${codes ? ` [${codes}]` : ''}`);
  }
  if (result.errors > 0) problems.push(`${label} (${phase}): ${result.errors} errors (${result.timeouts} of them timeouts)`);
  if (result.requests.total === 0) problems.push(`${label} (${phase}): no requests completed`);
  return problems;
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
  const warmup = await runAutocannon({ ...options, duration: WARMUP_SECONDS });
  failures.push(...problemsOf(target.label, 'warm-up', warmup.result));
  log(`${target.label}: measuring ${DURATION_SECONDS} s with ${CONNECTIONS} connections`);
  const { result, latencies } = await runAutocannon({ ...options, duration: DURATION_SECONDS });
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
    await waitForReady(handle, url);
    const body = await requestJson('GET', url, { expectStatus: 200 });
    if (body.hello !== 'world') throw new Error(`hello-server answered ${JSON.stringify(body)}`);
    await measure({ label: 'floor: bare Fastify 5 hello world (`GET /`)', url });
  } finally {
    const problem = await stopChild(handle);
    if (problem) failures.push(problem);
  }
}

async function benchHoglet() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hoglet-bench-'));
  tempDirs.add(dataDir);
  let handle;
  try {
    log(`bootstrapping Hoglet in ${dataDir}`);
    let stdout;
    try {
      ({ stdout } = await execFileAsync(
        process.execPath,
        [HOGLET_BIN, 'bootstrap', '--email', 'bench@example.com', '--json', '--data-dir', dataDir],
        { cwd: ROOT, timeout: BOOTSTRAP_TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 },
      ));
    } catch (error) {
      throw new Error(`hoglet bootstrap failed (${error.killed ? 'timed out' : `exit ${error.code}`}): ${error.stderr || error.message}`);
    }
    const ids = JSON.parse(stdout.trim());
    for (const key of ['organization_id', 'project_id', 'personal_api_key']) {
      if (ids[key] === undefined || ids[key] === null) throw new Error(`hoglet bootstrap output lacks ${key}: ${stdout}`);
    }

    const port = await freePort();
    handle = startChild('hoglet', [
      HOGLET_BIN, 'serve', '--data-dir', dataDir, '--port', String(port), '--host', HOST, '--log-level', 'warn',
    ]);
    const base = `http://${HOST}:${port}`;
    await waitForReady(handle, `${base}/_health`);

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
  } finally {
    if (handle) {
      const problem = await stopChild(handle);
      if (problem) failures.push(problem);
      if (handle.outputBytes() > 0) {
        log(`note: hoglet wrote ${handle.outputBytes()} bytes to stdout/stderr at log level warn; the last of it:`);
        process.stderr.write(`${handle.output().trimEnd()}\n`);
      }
    }
    rmSync(dataDir, { recursive: true, force: true });
    tempDirs.delete(dataDir);
  }
}

// ---------------------------------------------------------------------------------------------
// Report.

function commandLine() {
  const env = ['BENCH_DURATION', 'BENCH_CONNECTIONS']
    .filter((name) => process.env[name])
    .map((name) => `${name}=${process.env[name]}`);
  return [...env, 'node bench/api/run.js'].join(' ');
}

function autocannonVersion() {
  try {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'node_modules', 'autocannon', 'package.json'), 'utf8'));
    return pkg.version;
  } catch {
    return 'unknown';
  }
}

const fmtMs = (ms) => (ms === null ? 'n/a' : ms.toFixed(2));

function report() {
  const floor = rows.find((row) => row.label.startsWith('floor'));
  const cpus = os.cpus();
  const lines = [
    '## API benchmark results',
    '',
    `- Machine: ${cpus.length} cores (${cpus[0]?.model?.trim() ?? 'unknown CPU'}), ${os.platform()} ${os.arch()}, Node ${process.version}`,
    `- Command: \`${commandLine()}\` (after \`npm run build\`; or \`npm run bench:api\`)`,
    `- Load: autocannon ${autocannonVersion()}, ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up then ${DURATION_SECONDS} s measured, per target`,
    '- req/s: autocannon\'s average of per-second counts; p50/p99: latency of every 2xx response in the measured run',
    '',
    '| target | req/s | p50 ms | p99 ms | ratio to floor | non-2xx | errors |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const ratio = floor ? (row.requestsPerSecond / floor.requestsPerSecond).toFixed(2) : 'n/a';
    lines.push(
      `| ${row.label} | ${Math.round(row.requestsPerSecond)} | ${fmtMs(row.p50)} | ${fmtMs(row.p99)} | ${ratio} | ${row.non2xx} | ${row.errors} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

// ---------------------------------------------------------------------------------------------

let exitCode = 0;
try {
  await benchFloor();
  await benchHoglet();
} catch (error) {
  failures.push(`aborted: ${error.stack ?? error}`);
} finally {
  cleanupSync();
}
if (rows.length > 0) report();
if (failures.length > 0) {
  exitCode = 1;
  process.stderr.write(`\nbench: FAILED\n${failures.map((line) => `  - ${line}`).join('\n')}\n`);
}
clearTimeout(watchdog);
// Exit explicitly: idle keep-alive sockets from fetch must not hold the process open.
process.exit(exitCode);
