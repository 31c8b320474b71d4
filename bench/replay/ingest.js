// Step 2 of the replay benchmark: the saved /s/ requests replayed at full speed from N connections
// (undici), against the floor of writing the same bytes to files with fdatasync, in the same sizes
// and from as many writers at once, in the same run. Each round sends every saved request once
// with its sessions renamed `<id>-r<round>` (blocks are named by their content, so a body sent
// twice would store nothing the second time); bodies are re-gzipped as posthog-js sent them and
// made before the clock starts. The server's RSS is sampled every 100 ms while it ingests.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Pool } from 'undici';
import { log, makeTempDir, percentile, removeTempDir, sleep, stopChild } from '../lib/harness.js';
import { syncDirectory } from '../../dist/core/capture/log/sync-directory.js';
import { memoryOf, startHoglet } from './common.js';
import { summaryInsertMs } from './summary-floor.js';
import { bodyText, encodeBody, isGzip } from './rrweb.js';

/** Every saved request as one body per round, sessions renamed per round, sent to `token`'s project. */
export function roundBodies(captured, round, token) {
  return captured.map((request) => {
    const events = JSON.parse(bodyText(request.body));
    const sessions = new Set();
    for (const event of events) {
      const properties = event.properties ?? {};
      if (typeof properties.token === 'string') properties.token = token;
      if (typeof properties.$session_id === 'string') {
        properties.$session_id = `${properties.$session_id}-r${round}`;
        sessions.add(properties.$session_id);
      }
    }
    const text = JSON.stringify(events);
    return { query: request.query, headers: request.headers, body: encodeBody(text, isGzip(request.body)), jsonBytes: Buffer.byteLength(text), sessions: sessions.size };
  });
}

/** Sends `bodies` over `connections` connections, each request after the previous answer on its connection. */
async function send(base, bodies, connections) {
  const pool = new Pool(base, { connections, pipelining: 1 });
  const latencies = [];
  const statuses = {};
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < bodies.length) {
      const request = bodies[next++];
      const t0 = performance.now();
      const response = await pool.request({ path: `/s/${request.query}`, method: 'POST', headers: request.headers, body: request.body });
      await response.body.text();
      latencies.push(performance.now() - t0);
      statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { seconds, statuses, latencies: Float64Array.from(latencies).sort() };
}

/**
 * The floor: each body's bytes written to a new file the way the block store writes (a temporary
 * file, fdatasync, rename into a per-session directory, that directory fsync'd), `writers` at once.
 * `plain` leaves out the rename and directory sync: write + fdatasync alone.
 */
async function floor(bodies, writers, { plain }) {
  const dir = makeTempDir('hoglet-bench-replay-floor-');
  const tmp = path.join(dir, '.tmp');
  mkdirSync(tmp);
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < bodies.length) {
      const index = next++;
      const temporary = path.join(tmp, `${randomBytes(8).toString('hex')}.tmp`);
      const handle = await fsp.open(temporary, 'w');
      await handle.writeFile(bodies[index].body);
      await handle.datasync();
      await handle.close();
      if (plain) continue;
      const sessionDir = path.join(dir, `s${index % 200}`);
      await fsp.mkdir(sessionDir, { recursive: true });
      await fsp.rename(temporary, path.join(sessionDir, `${index}.gz`));
      await syncDirectory(sessionDir);
    }
  };
  await Promise.all(Array.from({ length: writers }, worker));
  const seconds = (performance.now() - started) / 1000;
  removeTempDir(dir);
  return { seconds };
}

function countBlocks(recordingsDir) {
  let blocks = 0;
  if (!existsSync(recordingsDir)) return 0;
  for (const team of readdirSync(recordingsDir).filter((name) => !name.startsWith('.'))) {
    for (const session of readdirSync(path.join(recordingsDir, team))) {
      blocks += readdirSync(path.join(recordingsDir, team, session)).filter((name) => name.endsWith('.jsonl.gz')).length;
    }
  }
  return blocks;
}

/** CPU seconds (user + system, all threads) of a process so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Runs the ingest comparison for each connection count: floor, server, floor again (the machine is
 * shared, so the floor is measured on both sides of the server's run). Returns rows for the report.
 */
export async function ingestBenchmark({ captured, rounds, connectionCounts, problems }) {
  // The per-minute budgets would refuse a replay at full speed (500 MiB a minute per project).
  const hoglet = await startHoglet('hoglet-bench-replay-ingest-', { HOGLET_REPLAY_PROJECT_MB_PER_MINUTE: '1000000', HOGLET_REPLAY_SESSION_MB_PER_MINUTE: '1000000' });
  const token = hoglet.ids.project_api_token;
  log(`making ${rounds + 1} rounds of ${captured.length} bodies (one warm-up round)`);
  const warmUp = roundBodies(captured, 0, token);
  const measured = [];
  for (let round = 1; round <= rounds; round++) measured.push(...roundBodies(captured, round, token));
  const wireBytes = measured.reduce((sum, b) => sum + b.body.length, 0);
  const jsonBytes = measured.reduce((sum, b) => sum + b.jsonBytes, 0);
  const pid = hoglet.server.child.pid;
  await sleep(2_000);
  const idle = memoryOf(pid);
  const rows = [];
  const memory = { idleRss: idle.rss, hwm: null };
  let expectedBlocks = 0;
  try {
    const warm = await send(hoglet.base, warmUp, 10);
    expectedBlocks += warmUp.reduce((sum, b) => sum + b.sessions, 0);
    if (Object.keys(warm.statuses).some((code) => code !== '200')) problems.push(`warm-up: statuses ${JSON.stringify(warm.statuses)}`);
    for (const [index, connections] of connectionCounts.entries()) {
      // Each connection count gets rounds of its own (sessions renamed again), so nothing repeats.
      const bodies = index === 0 ? measured : [];
      for (let r = 1; index > 0 && r <= rounds; r++) bodies.push(...roundBodies(captured, index * rounds + r, token));
      log(`floor (${connections} writers), before`);
      const before = await floor(bodies, connections, { plain: false });
      const plain = await floor(bodies, connections, { plain: true });
      log(`/s/ with ${connections} connections: ${bodies.length} requests`);
      let peakRss = 0;
      const sampler = setInterval(() => { peakRss = Math.max(peakRss, memoryOf(pid).rss ?? 0); }, 100);
      const cpu0 = cpuSeconds(pid);
      const run = await send(hoglet.base, bodies, connections);
      const cpu = cpuSeconds(pid) - cpu0;
      clearInterval(sampler);
      expectedBlocks += bodies.reduce((sum, b) => sum + b.sessions, 0);
      log(`floor (${connections} writers), after`);
      const after = await floor(bodies, connections, { plain: false });
      const bad = Object.entries(run.statuses).filter(([code]) => code !== '200');
      if (bad.length) problems.push(`/s/ x${connections}: statuses ${JSON.stringify(run.statuses)}`);
      const bytes = bodies.reduce((sum, b) => sum + b.body.length, 0);
      const json = bodies.reduce((sum, b) => sum + b.jsonBytes, 0);
      rows.push({
        connections, requests: bodies.length, wireBytes: bytes, jsonBytes: json, seconds: run.seconds,
        p50: percentile(run.latencies, 50), p99: percentile(run.latencies, 99), statuses: run.statuses,
        floorBefore: before.seconds, floorAfter: after.seconds, floorPlain: plain.seconds, peakRss, cores: cpu / run.seconds,
      });
    }
    memory.hwm = memoryOf(pid).hwm;
  } finally {
    const stopProblem = await stopChild(hoglet.server, 30_000);
    if (stopProblem) problems.push(stopProblem);
  }
  const stored = countBlocks(path.join(hoglet.dataDir, 'recordings'));
  if (stored !== expectedBlocks) problems.push(`stored ${stored} blocks, expected ${expectedBlocks} (one per session per request)`);
  log('summary-row INSERTs alone, one after another');
  const summaryMs = await summaryInsertMs(200);
  return { rows, memory, stored, expectedBlocks, summaryMs, perRound: { requests: captured.length, wireBytes: wireBytes / rounds, jsonBytes: jsonBytes / rounds } };
}
