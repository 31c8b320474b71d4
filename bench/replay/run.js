// Session replay benchmark (issue 33): what posthog-js records, how fast /s/ stores it, how much
// disk it takes, and how soon the web app's player shows a long recording.
//
//   npm run bench:replay                     (builds dist/ first; ~20 min, the recording ~9)
//   node bench/replay/run.js                 (uses the build already there)
//   BENCH_CAPTURE=/tmp/hoglet-replay-capture/requests.jsonl node bench/replay/run.js   (no new recording)
//
// Steps (record.js, ingest.js, first-frame.js):
//   1. Record BENCH_SESSIONS (100) sessions of a shop page (site.js) driven in Chromium with the
//      unchanged posthog-js, BENCH_PARALLEL (5) browser contexts at once, BENCH_SESSION_SECONDS (20)
//      each; every /s/ request is saved as sent to BENCH_CAPTURE_DIR (default
//      <tmp>/hoglet-replay-capture/requests.jsonl, kept for later runs).
//   3. Storage: the recording server's blocks against the raw rrweb JSON, per recorded minute.
//   2. Ingest: the saved requests replayed at full speed (BENCH_ROUNDS rounds, default 10, sessions
//      renamed per round; one more round as warm-up) from each of BENCH_CONNECTIONS (10,50)
//      connections, against writing the same bytes with fdatasync from as many writers, before and
//      after, in the same run; the server's RSS sampled while it ingests.
//   4. Player: time to first frame of a 10-minute recording at /project/<id>/replay/<session>,
//      BENCH_RUNS (5) fresh browser contexts.
// BENCH_STEPS=record,ingest,player picks steps (ingest and player need a capture). Progress on
// stderr, the Markdown report on stdout; any non-200 or failed check fails the run (exit 1).
import os from 'node:os';
import path from 'node:path';
import { existsSync } from 'node:fs';
import { commandLine, coresDescription, envList, envNumber, installCleanup, log, packageVersion, runAndExit } from '../lib/harness.js';
import { fmt, mib, readCapture, uptime } from './common.js';
import { firstFrameBenchmark } from './first-frame.js';
import { ingestBenchmark } from './ingest.js';
import { recordSessions } from './record.js';

const SESSIONS = envNumber('BENCH_SESSIONS', 100, { integer: true });
const PARALLEL = envNumber('BENCH_PARALLEL', 5, { integer: true });
const SECONDS = envNumber('BENCH_SESSION_SECONDS', 20, { integer: false });
const ROUNDS = envNumber('BENCH_ROUNDS', 10, { integer: true });
const CONNECTIONS = envList('BENCH_CONNECTIONS', [10, 50]);
const RUNS = envNumber('BENCH_RUNS', 5, { integer: true });
const STEPS = (process.env.BENCH_STEPS ?? 'record,ingest,player').split(',').map((step) => step.trim());
const CAPTURE_DIR = process.env.BENCH_CAPTURE_DIR ?? path.join(os.tmpdir(), 'hoglet-replay-capture');
let captureFile = process.env.BENCH_CAPTURE ?? null;

const problems = [];
const rows = [];
const loads = [];
let recorded = null;
let ingest = null;
let player = null;

const load = (what) => loads.push(`${what}: ${uptime().replace(/^.*load average/, 'load average')}`);

async function record() {
  if (!STEPS.includes('record') || captureFile) return;
  load('before recording');
  log(`recording ${SESSIONS} sessions, ${PARALLEL} at once, ${SECONDS} s each`);
  recorded = await recordSessions({ sessions: SESSIONS, parallel: PARALLEL, seconds: SECONDS, captureDir: CAPTURE_DIR });
  captureFile = recorded.captureFile;
  rows.push('record');
  const bad = Object.entries(recorded.seen.statuses).filter(([code]) => code !== '200');
  if (bad.length) problems.push(`recording: /s/ answered ${JSON.stringify(recorded.seen.statuses)}`);
  if (recorded.stored.length !== SESSIONS) problems.push(`recording: ${recorded.stored.length} sessions stored, ${SESSIONS} recorded`);
  log(`saved ${recorded.seen.requests} /s/ requests to ${captureFile}`);
}

async function ingestStep() {
  if (!STEPS.includes('ingest')) return;
  if (!captureFile || !existsSync(captureFile)) throw new Error('no capture to replay: run the record step or set BENCH_CAPTURE');
  load('before ingest');
  ingest = await ingestBenchmark({ captured: readCapture(captureFile), rounds: ROUNDS, connectionCounts: CONNECTIONS, problems });
  rows.push('ingest');
  load('after ingest');
}

async function playerStep() {
  if (!STEPS.includes('player')) return;
  if (!captureFile || !existsSync(captureFile)) throw new Error('no capture to build the long recording from: run the record step or set BENCH_CAPTURE');
  load('before player');
  player = await firstFrameBenchmark({ captured: readCapture(captureFile), runs: RUNS, problems });
  rows.push('player');
  load('after player');
}

const sum = (list, key) => list.reduce((total, item) => total + item[key], 0);
const MB = (bytes) => bytes / 1e6;

function report() {
  const out = [];
  out.push(`### Results (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`, '');
  out.push(`\`${commandLine(['BENCH_SESSIONS', 'BENCH_PARALLEL', 'BENCH_SESSION_SECONDS', 'BENCH_ROUNDS', 'BENCH_CONNECTIONS', 'BENCH_RUNS', 'BENCH_STEPS', 'BENCH_CAPTURE'], 'bench/replay/run.js')}\` on ${coresDescription()}, ` +
    `${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node ${process.version}, posthog-js ${packageVersion('posthog-js')}, @rrweb/replay ${packageVersion('@rrweb/replay')}, Chromium at ${process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium'}.`);
  out.push(`Machine load (shared with other engineers' test runs): ${loads.join('; ')}.`, '');
  if (recorded) {
    const s = recorded.stored;
    const minutes = sum(s, 'durationMs') / 60_000;
    out.push(`**Recording and storage.** ${s.length} sessions recorded in ${fmt(recorded.wallSeconds, 0)} s (${PARALLEL} contexts at once), ${fmt(minutes)} recorded minutes ` +
      `(${fmt(minutes * 60 / s.length)} s a session: first to last rrweb event); posthog-js sent ${recorded.seen.requests} /s/ requests ` +
      `(${JSON.stringify(recorded.seen.statuses)}), ${sum(s, 'blocks')} blocks stored, ${sum(s, 'events')} rrweb events.`, '');
    out.push('| what | bytes | per recorded minute | vs raw rrweb JSON |', '| --- | ---: | ---: | ---: |');
    const raw = sum(s, 'rawBytes');
    const line = (what, bytes) => out.push(`| ${what} | ${fmt(MB(bytes), 2)} MB | ${fmt(bytes / minutes / 1024, 1)} KiB | ${fmt(bytes / raw, 3)} |`);
    line('raw rrweb JSON (posthog-js\'s own gzip\'d fields unpacked)', raw);
    line('rrweb JSON as posthog-js sends it (full snapshots and mutations gzip\'d in the browser)', sum(s, 'rrwebBytes'));
    line('request bodies as sent (gzip)', recorded.seen.wireBytes);
    line('stored blocks: JSON lines `[window_id, event]`, uncompressed', sum(s, 'lineBytes'));
    line('stored blocks: gzip files (what the recordings take)', sum(s, 'compressed'));
    line('stored blocks: allocated on disk (4 KiB file system blocks)', sum(s, 'allocated'));
    out.push('');
  }
  if (ingest) {
    out.push(`**Ingest.** Each run sends ${ROUNDS} rounds of the ${ingest.perRound.requests} saved requests (sessions renamed per round; a warm-up round before), ` +
      `${fmt(MB(ingest.perRound.wireBytes), 2)} MB of gzip bodies and ${fmt(MB(ingest.perRound.jsonBytes), 2)} MB of JSON a round. ` +
      `Floor: the same bodies written as the block store writes (temporary file, fdatasync, rename, directory fsync) from as many writers, before and after the server's run; ` +
      `and write + fdatasync alone. MB/s of gzip bodies; "JSON MB/s" is the decoded request JSON.`, '');
    out.push('| connections | requests | /s/ req/s | /s/ MB/s | JSON MB/s | p50 ms | p99 ms | floor MB/s before / after | ratio to floor | write+fdatasync MB/s | server cores | server peak RSS MiB |',
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const row of ingest.rows) {
      const before = MB(row.wireBytes) / row.floorBefore;
      const after = MB(row.wireBytes) / row.floorAfter;
      const rate = MB(row.wireBytes) / row.seconds;
      out.push(`| ${row.connections} | ${row.requests} | ${fmt(row.requests / row.seconds, 0)} | ${fmt(rate, 2)} | ${fmt(MB(row.jsonBytes) / row.seconds, 2)} | ${fmt(row.p50, 1)} | ${fmt(row.p99, 1)} | ` +
        `${fmt(before, 1)} / ${fmt(after, 1)} | ${fmt(rate / ((before + after) / 2), 3)} | ${fmt(MB(row.wireBytes) / row.floorPlain, 1)} | ${fmt(row.cores, 2)} | ${fmt(row.peakRss, 0)} |`);
    }
    out.push('', `Server memory: RSS ${fmt(ingest.memory.idleRss, 0)} MiB idle after start, peak (VmHWM) ${fmt(ingest.memory.hwm, 0)} MiB after the runs. ` +
      `Blocks stored: ${ingest.stored} (expected ${ingest.expectedBlocks}: one per session per request). ` +
      `The summary row's INSERT alone (same statement, synced part, on the persons lane that runs one statement at a time; in this process, one after another): ` +
      `${fmt(ingest.summaryMs, 1)} ms, so at most ${fmt(1000 / ingest.summaryMs, 0)} blocks/s.`, '');
  }
  if (player) {
    out.push(`**Player.** A ${player.durationSeconds} s recording (${player.events} rrweb events, ${player.requests} /s/ requests of 2 s each as posthog-js flushes, ` +
      `${fmt(MB(player.sentBytes), 1)} MB of JSON) opened ${player.times.length} times in a fresh context, signed in. Times from navigation start (ms):`, '');
    out.push('| run | first frame | snapshot sources answered | first blob answered | last blob answered (blobs) | the player\'s own first-frame ms |', '| ---: | ---: | ---: | ---: | ---: | ---: |');
    player.times.forEach((time, i) => {
      const t = player.timeline[i] ?? {};
      out.push(`| ${i + 1} | ${fmt(time, 0)} | ${fmt(t.sourcesEnd, 0)} | ${fmt(t.firstBlobEnd, 0)} | ${fmt(t.lastBlobEnd, 0)} (${t.blobs ?? 'n/a'}) | ${fmt(t.playerOwnMs, 0)} |`);
    });
    out.push('', `Median time to first frame ${fmt(player.median, 0)} ms, worst ${fmt(player.worst, 0)} ms (target < 1000 ms).`, '');
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

installCleanup({ overallTimeoutMs: 60 * 60_000, stopping: 'the server and Chromium' });
await runAndExit([record, ingestStep, playerStep], { rows, failures: problems, report });
