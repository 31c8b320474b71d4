// Shared plumbing for the benchmark scripts (bench/api/run.js, bench/ingest/run.js): env knobs,
// cleanup on every exit path, child servers with bounded waits, `hoglet bootstrap`, autocannon runs
// and report helpers. Each script keeps its own targets, timeouts and report layout.
import autocannon from 'autocannon';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const HOGLET_BIN = path.join(ROOT, 'bin', 'hoglet.js');
export const HOST = '127.0.0.1';

export const log = (message) => process.stderr.write(`bench: ${message}\n`);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// Env knobs: a bad value stops the run at once (exit 2) rather than measuring something else.

export function envNumber(name, fallback, { integer }) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    process.stderr.write(`bench: ${name} must be a positive ${integer ? 'integer' : 'number'} (got ${JSON.stringify(raw)})\n`);
    process.exit(2);
  }
  return value;
}

/** Positive integers, comma-separated: `10` or `10,50`. */
export function envList(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const values = raw.split(',').map((part) => Number(part.trim()));
  if (values.length === 0 || values.some((value) => !Number.isInteger(value) || value <= 0)) {
    process.stderr.write(`bench: ${name} must be positive integers separated by commas (got ${JSON.stringify(raw)})\n`);
    process.exit(2);
  }
  return [...new Set(values)];
}

/** The promise's value, or an error naming `what` once `ms` have passed. */
export async function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// ---------------------------------------------------------------------------------------------
// Cleanup: whatever happens (error, signal, watchdog), children are killed and temp dirs removed.

const liveChildren = new Set();
const tempDirs = new Set();
let watchdog = null;

export function cleanupSync() {
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

/**
 * Hooks cleanup to exit and to SIGINT/SIGTERM/SIGHUP, and arms a watchdog so that a hung run
 * still ends (exit 1). `stopping` names what a signal stops, for the log line.
 */
export function installCleanup({ overallTimeoutMs, stopping }) {
  process.on('exit', cleanupSync);
  for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]]) {
    process.once(signal, () => {
      log(`received ${signal}; stopping ${stopping} and removing temp data`);
      cleanupSync();
      process.exit(128 + number);
    });
  }
  watchdog = setTimeout(() => {
    log(`FAILED: the whole benchmark took longer than ${Math.round(overallTimeoutMs / 1000)} s; giving up`);
    cleanupSync();
    process.exit(1);
  }, overallTimeoutMs);
  watchdog.unref();
}

/** A temporary directory that is removed at exit even if the caller never gets to it. */
export function makeTempDir(prefix) {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir) {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

/**
 * Runs the steps in order; an error aborts the rest but the report of what was measured still
 * prints. Exits 1 if anything failed, else 0.
 */
export async function runAndExit(steps, { rows, failures, report }) {
  let exitCode = 0;
  try {
    for (const step of steps) await step();
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
  // Exit explicitly: idle keep-alive sockets from fetch (and chDB's threads) must not hold the process open.
  process.exit(exitCode);
}

// ---------------------------------------------------------------------------------------------
// Child processes.

/** A port free right now on HOST (the OS picks it), for a server we are about to start. */
export async function freePort() {
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

/**
 * Starts `node <args>` in the repository root, keeping the tail of its output for diagnostics;
 * `echo` also copies that output to our stderr as it comes.
 */
export function startChild(name, args, { echo = false } = {}) {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  liveChildren.add(child);
  let tail = '';
  let bytes = 0;
  const keep = (chunk) => {
    if (echo) process.stderr.write(chunk);
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

/** Polls `url` until it answers 200; fails early if the child dies, or after `timeoutMs`. */
export async function waitForReady(handle, url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
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
        `${handle.name} not ready at ${url} within ${timeoutMs / 1000} s (${lastProblem}). Its output:\n${handle.output()}`,
      );
    }
    await sleep(100);
  }
}

/** SIGTERM, then SIGKILL if it does not exit in time. Returns a problem description, or null. */
export async function stopChild(handle, timeoutMs) {
  if (!handle.exitInfo()) {
    handle.child.kill('SIGTERM');
    const stopped = await Promise.race([handle.exited, sleep(timeoutMs).then(() => null)]);
    if (!stopped) {
      handle.child.kill('SIGKILL');
      await Promise.race([handle.exited, sleep(2000)]);
      return `${handle.name} did not exit within ${timeoutMs / 1000} s of SIGTERM; killed`;
    }
  }
  const info = await handle.exited;
  if (info.error || info.code !== 0) return `${handle.name} did not exit cleanly on SIGTERM (${describeExit(info)})`;
  return null;
}

/** The server runs at log level warn, so any output it wrote is worth showing. */
export function showLeftoverOutput(handle) {
  if (handle.outputBytes() > 0) {
    log(`note: ${handle.name} wrote ${handle.outputBytes()} bytes to stdout/stderr at log level warn; the last of it:`);
    process.stderr.write(`${handle.output().trimEnd()}\n`);
  }
}

/** `hoglet bootstrap --json` on `dataDir`; returns its ids, checking that `requiredKeys` are there. */
export async function bootstrapHoglet(dataDir, requiredKeys, timeoutMs) {
  log(`bootstrapping Hoglet in ${dataDir}`);
  let stdout;
  try {
    ({ stdout } = await execFileAsync(
      process.execPath,
      [HOGLET_BIN, 'bootstrap', '--email', 'bench@example.com', '--json', '--data-dir', dataDir],
      { cwd: ROOT, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 1024 * 1024 },
    ));
  } catch (error) {
    throw new Error(`hoglet bootstrap failed (${error.killed ? 'timed out' : `exit ${error.code}`}): ${error.stderr || error.message}`);
  }
  const ids = JSON.parse(stdout.trim());
  for (const key of requiredKeys) {
    if (ids[key] === undefined || ids[key] === null) throw new Error(`hoglet bootstrap output lacks ${key}: ${stdout}`);
  }
  return ids;
}

// ---------------------------------------------------------------------------------------------
// Load runs.

/**
 * One autocannon run, given up `graceMs` after its own duration. Besides autocannon's own result,
 * returns the latency of every 2xx response in milliseconds with sub-millisecond precision:
 * autocannon's histogram keeps whole milliseconds only, which reads as "0 ms" for anything this fast.
 */
export async function runAutocannon(options, graceMs, { counted = (statusCode) => statusCode >= 200 && statusCode < 300 } = {}) {
  let instance;
  const latencies = [];
  const run = new Promise((resolve, reject) => {
    instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (counted(statusCode)) latencies.push(responseTime);
  });
  const limitMs = options.duration * 1000 + graceMs;
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
export function percentile(sorted, p) {
  if (sorted.length === 0) return null;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round(sorted[index] * 100) / 100;
}

/** `200×1234, 503×2` from autocannon's per-status counts, for the codes `keep` accepts ('' if none). */
export function statusCounts(result, keep = () => true) {
  return Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => keep(code))
    .sort(([a], [b]) => Number(a) - Number(b))
    .map(([code, { count }]) => `${code}×${count}`)
    .join(', ');
}

/** 2xx responses in an autocannon result. */
export function ok2xx(result) {
  return Object.entries(result.statusCodeStats ?? {})
    .filter(([code]) => code.startsWith('2'))
    .reduce((sum, [, { count }]) => sum + count, 0);
}

/**
 * Problems in an autocannon result: any non-2xx, error or timeout. `statuses` is what to show in
 * brackets after a non-2xx count (by default the non-2xx codes; nothing if empty).
 */
export function problemsOf(label, phase, result, statuses = statusCounts(result, (code) => !code.startsWith('2'))) {
  const problems = [];
  if (result.non2xx > 0) problems.push(`${label} (${phase}): ${result.non2xx} non-2xx responses${statuses ? ` [${statuses}]` : ''}`);
  if (result.errors > 0) problems.push(`${label} (${phase}): ${result.errors} errors (${result.timeouts} of them timeouts)`);
  if (result.requests.total === 0) problems.push(`${label} (${phase}): no requests completed`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Report helpers.

/**
 * The command that reproduces this run: the env knobs that were set, then `node <script>`.
 * `quoteSpaces` single-quotes values holding whitespace (e.g. node flags).
 */
export function commandLine(envNames, script, { quoteSpaces = false } = {}) {
  const env = envNames
    .filter((name) => process.env[name])
    .map((name) => {
      const value = process.env[name];
      return `${name}=${quoteSpaces && /\s/.test(value) ? `'${value}'` : value}`;
    });
  return [...env, `node ${script}`].join(' ');
}

/** Installed version of a dependency, for the report; 'unknown' if it cannot be read. */
export function packageVersion(name) {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'unknown';
  }
}

export const fmtMs = (ms) => (ms === null || ms === undefined ? 'n/a' : ms.toFixed(2));

/** `N cores (CPU model)` of this machine. */
export function coresDescription() {
  const cpus = os.cpus();
  return `${cpus.length} cores (${cpus[0]?.model?.trim() ?? 'unknown CPU'})`;
}
