// Sustained ingest: BENCH_DURATION seconds (default 600) of `/batch/` at a fixed rate (default
// 32 000 events/s, about 80 % of what this machine saturates at, bench/README.md), every request
// with fresh uuids. The server runs through bench/ingest/sampled-serve.js, which records every
// BENCH_SAMPLE_SECONDS (default 30): memory, the active parts of the tables capture writes, the
// inserter's backlog and the mean time of its writes. Flat memory, parts kept down by merges and
// no growth in write time are what this shows; it fails only on errors, non-2xx other than 503,
// or acknowledged events missing afterwards.
//
//   npm run build && node bench/ingest/sustained.js
//   BENCH_DURATION=120 BENCH_RATE=20000 node bench/ingest/sustained.js
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventFactory, USER_AGENT } from './events.js';
import {
  HOST,
  bootstrapHoglet,
  coresDescription,
  envNumber,
  fmtMs,
  freePort,
  installCleanup,
  log,
  makeTempDir,
  ok2xx,
  packageVersion,
  percentile,
  removeTempDir,
  runAndExit,
  runAutocannon,
  startChild,
  statusCounts,
  stopChild,
  waitForReady,
} from '../lib/harness.js';

const DURATION_SECONDS = envNumber('BENCH_DURATION', 600, { integer: true });
const RATE = envNumber('BENCH_RATE', 32_000, { integer: true });
const SAMPLE_SECONDS = envNumber('BENCH_SAMPLE_SECONDS', 30, { integer: true });
const EVENTS_PER_BATCH = 100;
const CONNECTIONS = 20;
const SAMPLED_SERVE = fileURLToPath(new URL('./sampled-serve.js', import.meta.url));
const DIST = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'dist');

installCleanup({ overallTimeoutMs: (DURATION_SECONDS + 300) * 1000, stopping: 'the server' });

const rows = [];
const failures = [];
let summary = null;

async function sustained() {
  const dataDir = makeTempDir('hoglet-bench-sustained-');
  const samplesFile = path.join(dataDir, 'samples.jsonl');
  let handle;
  let projectId = null;
  try {
    const ids = await bootstrapHoglet(dataDir, ['project_api_token', 'project_id'], 30_000);
    projectId = Number(ids.project_id);
    const port = await freePort();
    handle = startChild('hoglet', [
      SAMPLED_SERVE, '--data-dir', dataDir, '--port', String(port), '--host', HOST, '--log-level', 'error',
      '--samples', samplesFile, '--every-ms', String(SAMPLE_SECONDS * 1000),
    ]);
    const base = `http://${HOST}:${port}`;
    await waitForReady(handle, `${base}/_health`, 30_000);
    const factory = new EventFactory({ users: 10_000, seed: 11 });
    let handedOut = 0;
    log(`${DURATION_SECONDS} s of /batch/ at ${RATE} events/s (${RATE / EVENTS_PER_BATCH} req/s, ${CONNECTIONS} connections)`);
    const { result, latencies } = await runAutocannon(
      {
        url: `${base}/batch/`,
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'User-Agent': USER_AGENT },
        connections: CONNECTIONS,
        overallRate: RATE / EVENTS_PER_BATCH,
        duration: DURATION_SECONDS,
        timeout: 15,
        requests: [
          {
            setupRequest: (request) => {
              handedOut += 1;
              request.body = factory.batchBody(ids.project_api_token, EVENTS_PER_BATCH);
              return request;
            },
          },
        ],
      },
      60_000,
    );
    const acknowledged = ok2xx(result) * EVENTS_PER_BATCH;
    const refused = result.statusCodeStats?.['503']?.count ?? 0;
    if (result.non2xx - refused > 0) failures.push(`non-2xx other than 503: ${statusCounts(result, (code) => !code.startsWith('2'))}`);
    if (result.errors > 0) failures.push(`${result.errors} errors (${result.timeouts} timeouts)`);
    summary = {
      acknowledged,
      handedOut: handedOut * EVENTS_PER_BATCH,
      eventsPerSecond: acknowledged / result.duration,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      statuses: statusCounts(result),
    };
    rows.push(...readFileSync(samplesFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)));
  } finally {
    if (handle) {
      const problem = await stopChild(handle, 60_000);
      if (problem) failures.push(problem);
    }
  }
  try {
    if (summary && failures.length === 0) await verify(dataDir, projectId);
  } finally {
    removeTempDir(dataDir);
  }
}

async function verify(dataDir, projectId) {
  const { loadConfig } = await import(path.join(DIST, 'config.js'));
  const { openEventStore } = await import(path.join(DIST, 'storage', 'events', 'connect.js'));
  const store = await openEventStore(loadConfig({ dataDir }, {}).events);
  try {
    const [counts] = await store.query(
      'SELECT count() AS stored, uniqExact(uuid) AS distinct_uuids FROM hoglet.events WHERE team_id = {team:UInt64}',
      { team: projectId },
    );
    summary.stored = Number(counts.stored);
    summary.distinctUuids = Number(counts.distinct_uuids);
  } finally {
    await store.close();
  }
  if (summary.stored < summary.acknowledged) failures.push(`${summary.acknowledged - summary.stored} acknowledged events are not stored`);
  if (summary.distinctUuids !== summary.stored) failures.push(`${summary.stored - summary.distinctUuids} events stored twice`);
  if (summary.stored > summary.handedOut) failures.push('more events stored than sent');
}

function report() {
  const fmt = (n) => (n === null || n === undefined ? 'n/a' : Math.round(n).toLocaleString('en').replace(/,/g, ' '));
  const lines = [
    '## Sustained ingest',
    '',
    `- Machine: ${coresDescription()}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, Node ${process.version}, chdb ${packageVersion('chdb')}`,
    `- Command: \`BENCH_DURATION=${DURATION_SECONDS} BENCH_RATE=${RATE} node bench/ingest/sustained.js\``,
  ];
  if (summary) {
    lines.push(
      `- Load: ${DURATION_SECONDS} s of \`/batch/\` (gzip, ${EVENTS_PER_BATCH} events) at ${fmt(RATE)} events/s asked; ` +
        `acknowledged ${fmt(summary.eventsPerSecond)} events/s, p50 ${fmtMs(summary.p50)} ms, p99 ${fmtMs(summary.p99)} ms; statuses ${summary.statuses}`,
      `- Verification: ${fmt(summary.stored)} stored (${fmt(summary.distinctUuids)} distinct uuids) for ${fmt(summary.acknowledged)} acknowledged`,
    );
  }
  lines.push(
    '',
    '| s | RSS MiB | heap MiB | backlog events | inserter writes | ms per write | events per write | events parts | event_uuids parts | persons parts | events rows |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of rows) {
    const p = (table) => r.parts[table]?.parts ?? 0;
    lines.push(
      `| ${r.seconds} | ${r.rssMiB} | ${r.heapMiB} | ${fmt(r.backlog)} | ${r.writes} | ${r.writeMs === null ? 'n/a' : r.writeMs.toFixed(0)} | ` +
        `${fmt(r.eventsPerWrite)} | ${p('events')} | ${p('event_uuids')} | ${p('persons')} | ${fmt(r.parts.events?.rows)} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

// The report always prints (with what was measured before any failure).
await runAndExit([sustained], { rows: ['report'], failures, report });
