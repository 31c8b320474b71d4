// Query benchmark: Hoglet's insight queries (POST /api/projects/:id/query/) against hand-written
// ClickHouse SQL for the same answers, on the same embedded engine, in the same process and run.
//
//   npm run bench:query                      (builds dist/ first)
//   node bench/query/run.js                  (uses the dist/ already built)
//   BENCH_DATA_DIR=/path/to/dir node bench/query/run.js    (keep the data set and reuse it)
//
// Steps, in order:
//   1. The data set: BENCH_EVENTS events (default 10 000 000) from BENCH_PERSONS persons (default
//      100 000) over the 90 days before generation, from the seeded generator in generate.js,
//      written into Hoglet's event store in this process. With BENCH_DATA_DIR the directory is
//      kept and reused when it already holds a data set of that size (generated only if missing);
//      without it a temporary directory is made and removed at exit.
//   2. Hoglet's HTTP app is built over the same services (buildApp from dist/http/app.js) and
//      called with app.inject: no sockets, no second chDB (one chDB per process).
//   3. For each case (handwritten.js): 2 warm-up runs of each side, then BENCH_RUNS (default 7)
//      measured runs alternating hand-written SQL (EventStore.query) and Hoglet (the PostHog query
//      with refresh "force_blocking"). Every Hoglet answer is compared with the hand-written one;
//      the funnels' hand-written answers are also checked once against a second, independent
//      query (windowFunnel against the UDF walk), which is timed in every measured run too (the
//      report's notes give Hoglet ÷ windowFunnel).
//   4. Report: median, min and max ms per side, Hoglet median ÷ hand-written median, the aims.
//
// If the query endpoint answers 404 (not there yet) Hoglet's column reads "not available" and the
// hand-written timings still print. Any other error, a Hoglet answer that differs from the
// hand-written one, or reference queries that disagree fail the benchmark (exit 1) after the
// report. Progress goes to stderr; the Markdown report to stdout.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  commandLine,
  coresDescription,
  envNumber,
  fmtMs,
  installCleanup,
  log,
  makeTempDir,
  packageVersion,
  runAndExit,
  withTimeout,
} from '../lib/harness.js';
import { prepareDataSet, loadDist, requestedSize } from './generate.js';
import { WINDOW_DAYS, benchCases, dateRange, differences } from './handwritten.js';
import { cohortCases, makeCohorts } from './cohort-cases.js';
import { webCases } from './web-cases.js';

const WARMUP_RUNS = 2;
const RUNS = envNumber('BENCH_RUNS', 7, { integer: true });
const DATA_DIR = process.env.BENCH_DATA_DIR ? path.resolve(process.env.BENCH_DATA_DIR) : null;
const SIZE = requestedSize();
/** BENCH_CASES=retention,trend: only the cases whose id starts with one of these. */
const ONLY = process.env.BENCH_CASES ? process.env.BENCH_CASES.split(',').map((s) => s.trim()).filter(Boolean) : null;

const AIM_RATIO = 1.3;
const AIM_TREND_MS = 300;
const AIM_FUNNEL3_MS = 1000;

// Bounds on every wait.
const QUERY_TIMEOUT_MS = 120_000;
const GENERATE_BUDGET_MS = Math.max(600_000, (SIZE.events / 10_000_000) * 900_000);
const OVERALL_TIMEOUT_MS = GENERATE_BUDGET_MS + 6 * (WARMUP_RUNS + RUNS + 2) * 2 * 20_000 + 120_000;

installCleanup({ overallTimeoutMs: OVERALL_TIMEOUT_MS, stopping: 'the benchmark' });

const failures = [];
const rows = [];
const notes = [];
let dataSet = null;
let storage = null;
let memory = {};
let hogletStatus = null;
const loadAverages = [];

/** VmRSS / VmHWM of this process in MiB (chDB runs inside it). */
function memoryNow() {
  try {
    const status = readFileSync('/proc/self/status', 'utf8');
    const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
    return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
  } catch {
    return { rss: null, hwm: null };
  }
}

function duBytes(dir) {
  try {
    return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8', timeout: 30_000 }).split(/\s/)[0]);
  } catch {
    return null;
  }
}

const median = (sorted) => sorted[Math.floor((sorted.length - 1) / 2)];
const summary = (samples) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: median(sorted), min: sorted[0], max: sorted[sorted.length - 1], samples };
};

async function timed(fn) {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

// ---------------------------------------------------------------------------------------------

let services = null;
let app = null;
let info = null;

async function prepare() {
  const dir = DATA_DIR ?? makeTempDir('hoglet-bench-query-');
  const opened = await withTimeout(prepareDataSet(dir, SIZE), GENERATE_BUDGET_MS, 'preparing the data set');
  services = opened.services;
  info = opened.info;
  dataSet = { dir, generated: opened.generated, kept: DATA_DIR !== null, ...info };
  memory.afterOpen = memoryNow();

  const [parts] = await services.events.query(
    `SELECT sum(rows) AS rows, sum(bytes_on_disk) AS disk, sum(data_uncompressed_bytes) AS raw, count() AS parts
     FROM system.parts WHERE database = {db:String} AND table = 'events' AND active`,
    { db: services.events.layout.database },
  );
  const [counts] = await services.events.query(
    `SELECT count() AS events, uniqExact(person_id) AS persons, min(timestamp) AS first, max(timestamp) AS last,
        (SELECT count() FROM ${services.events.layout.database}.person_distinct_id_overrides) AS overrides
     FROM ${services.events.layout.database}.events WHERE team_id = {team:UInt64}`,
    { team: info.project_id },
  );
  storage = {
    rows: Number(parts.rows),
    disk: Number(parts.disk),
    raw: Number(parts.raw),
    parts: Number(parts.parts),
    dirBytes: duBytes(path.join(dir, 'events')),
    events: Number(counts.events),
    persons: Number(counts.persons),
    overrides: Number(counts.overrides),
    first: counts.first,
    last: counts.last,
  };
  if (storage.events !== SIZE.events) failures.push(`data set: ${storage.events} events stored, ${SIZE.events} expected`);
  log(
    `data set: ${storage.events} events, ${storage.persons} person ids on events, ${storage.overrides} overrides, ` +
      `${(storage.disk / 2 ** 20).toFixed(0)} MiB on disk in ${storage.parts} parts; RSS ${memory.afterOpen.rss?.toFixed(0)} MiB`,
  );

  const { buildApp } = await loadDist();
  // Errors only, to stderr: a 500 from the query endpoint shows its cause without touching the report.
  app = await buildApp(services, { logger: { level: 'error', stream: process.stderr } });
  await app.ready();
}

/** A cohort made through the API, for the cohort cases. */
async function createCohort(payload) {
  const response = await app.inject({
    method: 'POST',
    url: `/api/projects/${info.project_id}/cohorts/`,
    headers: { authorization: `Bearer ${info.personal_api_key}`, 'content-type': 'application/json' },
    payload,
  });
  if (response.statusCode !== 201) throw new Error(`creating a cohort: ${response.statusCode} ${response.body.slice(0, 300)}`);
  return response.json();
}

async function handAnswer(q) {
  const { ms, value } = await timed(() => withTimeout(services.events.query(q.sql, q.params, q.options), QUERY_TIMEOUT_MS, 'a hand-written query'));
  return { ms, answer: q.read(value) };
}

/** Hoglet's answer, or `{ status }` when it is not a 200. */
async function hogletAnswer(c) {
  const { ms, value: response } = await timed(() =>
    withTimeout(
      app.inject({
        method: 'POST',
        url: `/api/projects/${info.project_id}/query/`,
        headers: { authorization: `Bearer ${info.personal_api_key}`, 'content-type': 'application/json' },
        payload: { query: c.hoglet.query, refresh: 'force_blocking' },
      }),
      QUERY_TIMEOUT_MS,
      'a Hoglet query',
    ),
  );
  if (response.statusCode !== 200) return { ms, status: response.statusCode, body: response.body.slice(0, 500) };
  const body = response.json();
  return { ms, status: 200, answer: c.hoglet.read(body), timings: c.hoglet.timings?.(body) ?? null };
}

function compare(c, expected, actual, what) {
  const diff = differences(expected, actual);
  if (diff.length > 0) {
    failures.push(`${c.id}: ${what} differs from the hand-written answer:\n      ${diff.join('\n      ')}`);
    return false;
  }
  return true;
}

async function runCase(c) {
  log(`${c.id}: warm-up`);
  const row = { id: c.id, label: c.label, steps: c.steps ?? null, hand: null, hoglet: null, hogletNote: null, answer: null };
  rows.push(row);

  let reference = null;
  for (let i = 0; i < WARMUP_RUNS; i++) {
    const { answer } = await handAnswer(c.hand);
    if (reference === null) reference = answer;
    else if (differences(reference, answer).length > 0) failures.push(`${c.id}: the hand-written query gave two different answers`);
  }
  row.answer = reference;

  if (c.check) {
    const { answer } = await handAnswer(c.check);
    const diff = differences(c.check.project(reference), answer);
    if (diff.length > 0) failures.push(`${c.id}: the hand-written query and ${c.check.what} disagree:\n      ${diff.join('\n      ')}`);
    else log(`${c.id}: hand-written answer agrees with ${c.check.what}`);
  }

  let hoglet = hogletStatus === 404 ? 'skip' : 'try';
  for (let i = 0; i < WARMUP_RUNS && hoglet === 'try'; i++) {
    const result = await hogletAnswer(c);
    if (result.status === 404) {
      hogletStatus = 404;
      hoglet = 'skip';
      row.hogletNote = 'not available (404)';
      notes.push(`Hoglet's query endpoint answered 404: ${result.body}`);
    } else if (result.status !== 200) {
      hoglet = 'skip';
      row.hogletNote = `error ${result.status}`;
      failures.push(`${c.id}: Hoglet answered ${result.status}: ${result.body}`);
    } else if (i === 0 && result.timings) {
      const first = Object.entries(result.timings).map(([stage, ms]) => `${stage} ${fmtMs(ms)} ms`).join(', ');
      notes.push(`${c.id}: first run (nothing cached): ${first}.`);
      if (!compare(c, reference, result.answer, 'Hoglet\'s answer (warm-up)')) {
        hoglet = 'skip';
        row.hogletNote = 'wrong answer';
      }
    } else if (!compare(c, reference, result.answer, 'Hoglet\'s answer (warm-up)')) {
      hoglet = 'skip'; // its timings would measure a different computation
      row.hogletNote = 'wrong answer';
    }
  }
  if (hoglet === 'skip' && !row.hogletNote) row.hogletNote = 'not available (404)';

  log(`${c.id}: ${RUNS} measured runs${hoglet === 'try' ? ', alternating hand-written and Hoglet' : ', hand-written only'}`);
  const handMs = [];
  const hogletMs = [];
  /** Stages Hoglet reports apart (HogQL: parse and translate), ms per measured run. */
  const stages = {};
  /** The check query's time too (a funnel's `windowFunnel` counts: the issue 18 yardstick). */
  const checkMs = [];
  for (let i = 0; i < RUNS; i++) {
    const hand = await handAnswer(c.hand);
    handMs.push(hand.ms);
    if (c.check) checkMs.push((await handAnswer(c.check)).ms);
    if (hoglet === 'try') {
      const result = await hogletAnswer(c);
      if (result.status !== 200) {
        failures.push(`${c.id}: Hoglet answered ${result.status} in a measured run: ${result.body}`);
        row.hogletNote = `error ${result.status}`;
        hoglet = 'skip';
      } else {
        hogletMs.push(result.ms);
        for (const [stage, ms] of Object.entries(result.timings ?? {})) (stages[stage] ??= []).push(ms);
        if (!compare(c, reference, result.answer, 'Hoglet\'s answer')) {
          row.hogletNote = 'wrong answer';
          hoglet = 'skip';
        }
      }
    }
  }
  row.hand = summary(handMs);
  if (hoglet === 'try' && hogletMs.length === RUNS) row.hoglet = summary(hogletMs);
  if (c.check) {
    const check = summary(checkMs);
    const ratio = row.hoglet ? `; Hoglet ÷ it ${(row.hoglet.median / check.median).toFixed(2)}` : '';
    notes.push(`${c.id}: ${c.check.what} (counts only) median ${fmtMs(check.median)} ms${ratio}.`);
  }
  const stageText = Object.entries(stages).map(([stage, ms]) => `${stage} median ${fmtMs(summary(ms).median)} ms`).join(', ');
  if (stageText) notes.push(`${c.id}: of Hoglet's time, ${stageText} (the parse is cached after the first run of a text).`);
  log(
    `${c.id}: hand-written median ${fmtMs(row.hand.median)} ms (min ${fmtMs(row.hand.min)}, max ${fmtMs(row.hand.max)})` +
      (row.hoglet ? `; Hoglet median ${fmtMs(row.hoglet.median)} ms, ratio ${(row.hoglet.median / row.hand.median).toFixed(2)}` : `; Hoglet ${row.hogletNote}`),
  );
}

async function benchmark() {
  loadAverages.push(os.loadavg()[0]);
  const startedDay = dateRange(Date.now()).days.at(-1);
  try {
    const range = dateRange(Date.now());
    const wanted = (id) => ONLY === null || ONLY.some((prefix) => id.startsWith(prefix));
    const db = services.events.layout.database;
    const cohorts = wanted('cohort-') ? await makeCohorts(createCohort) : null;
    const cases = [
      ...benchCases({ db, team: info.project_id, range }),
      ...(cohorts ? cohortCases({ db, team: info.project_id, range, nowMs: Date.now(), cohorts }) : []),
      // Web analytics (issue 30) only when asked for: BENCH_CASES=web (npm run bench:web-analytics).
      ...(ONLY?.some((prefix) => prefix.startsWith('web')) ? webCases({ db, team: info.project_id, nowMs: info.nowMs }) : []),
    ].filter((c) => wanted(c.id));
    for (const c of cases) await runCase(c);
    if (dateRange(Date.now()).days.at(-1) !== startedDay) {
      notes.push('the UTC day changed during the run: Hoglet\'s "-30d" and the hand-written range may cover different days');
    }
    memory.end = memoryNow();
    loadAverages.push(os.loadavg()[0]);
  } finally {
    if (app) await app.close().catch((error) => failures.push(`closing the app: ${error.message}`));
    if (services) await services.close().catch((error) => failures.push(`closing the services: ${error.message}`));
  }
}

// ---------------------------------------------------------------------------------------------
// Report.

const fmtInt = (n) => Math.round(n).toLocaleString('en').replace(/,/g, ' ');
const fmtMiB = (bytes) => (bytes === null || bytes === undefined ? 'n/a' : `${fmtInt(bytes / 2 ** 20)} MiB`);
const fmtSeconds = (s) => (s === undefined || s === null ? 'n/a' : `${s.toFixed(1)} s`);
const QUERY_ENV = ['BENCH_EVENTS', 'BENCH_PERSONS', 'BENCH_RUNS', 'BENCH_DATA_DIR', 'BENCH_CASES'];

function describeAnswer(row) {
  const answer = row.answer;
  if (!answer) return '';
  if (answer.correlation) {
    const [top] = answer.correlation.events;
    return `${answer.correlation.events.length} items${answer.correlation.skewed ? ', skewed' : ''}${top ? `; top ${top.event} (odds ${top.odds_ratio.toFixed(2)})` : ''}`;
  }
  if (answer.edges) return `${answer.edges.length} edges; heaviest ${answer.edges.slice(0, 2).map((e) => `${e.source} → ${e.target} ${fmtInt(e.value)}`).join(', ')}`;
  if (answer.stickiness) return `persons by days active: ${answer.stickiness.slice(0, 5).map(fmtInt).join(', ')}, …`;
  if (answer.lifecycle) {
    const sum = (values) => values.reduce((a, b) => a + b, 0);
    return Object.entries(answer.lifecycle).map(([status, data]) => `${status} ${fmtInt(sum(data))}`).join(', ');
  }
  if (answer.retention) {
    const m = answer.retention;
    return `${m.length} cohorts; first ${m[0].slice(0, 4).map(fmtInt).join(' → ')} …; last cohort ${fmtInt(m.at(-1)[0])}`;
  }
  if (answer.steps) {
    return answer.steps
      .map((step) => (step.average_conversion_time === undefined || step.average_conversion_time === null
        ? fmtInt(step.count)
        : `${fmtInt(step.count)} (avg ${(step.average_conversion_time / 3600).toFixed(2)} h)`))
      .join(' → ');
  }
  if (Array.isArray(answer)) {
    const first = answer[0] === undefined ? 'none' : JSON.stringify(answer[0]).slice(0, 80);
    return `${fmtInt(answer.length)} rows; first ${first}`;
  }
  if (answer.persons !== undefined) return `${fmtInt(answer.persons)} persons`;
  const series = Object.entries(answer.series);
  const sum = (values) => values.reduce((a, b) => a + b, 0);
  if (row.id === 'trend') return `total ${fmtInt(sum(answer.series.total))}, daily uniques summed ${fmtInt(sum(answer.series.dau))}`;
  return `${series.length / 2} breakdown values, total ${fmtInt(sum(series.filter(([k]) => k.startsWith('total')).flatMap(([, v]) => v)))}`;
}

function report() {
  const g = dataSet?.timings;
  const lines = [
    '## Query benchmark results',
    '',
    `- Machine: ${coresDescription()}, ${Math.round(os.totalmem() / 2 ** 30)} GB RAM, ${os.platform()} ${os.arch()}, ` +
      `Node ${process.version}, chdb ${packageVersion('chdb')}`,
    `- Command: \`${commandLine(QUERY_ENV, 'bench/query/run.js')}\` (after \`npm run build\`; or \`npm run bench:query\`)`,
  ];
  if (dataSet) {
    lines.push(
      `- Data set: ${fmtInt(dataSet.events)} events (${fmtInt(dataSet.structured)} of them structured: sign-ups, purchases, identifies, step journeys), ` +
        `${fmtInt(dataSet.persons)} persons, seed ${dataSet.seed}, 90 days up to ${new Date(dataSet.nowMs).toISOString()}` +
        (dataSet.generated ? '' : ` (reused from ${dataSet.dir})`),
      `- Generation${dataSet.generated ? '' : ' (when it was made)'}: ${fmtSeconds(g?.total)} in all — persons ${fmtSeconds(g?.persons)}, structured events ${fmtSeconds(g?.structured)}, ` +
        `other events ${fmtSeconds(g?.general)} (${g?.general ? fmtInt((dataSet.events - dataSet.structured) / g.general) : 'n/a'} rows/s), OPTIMIZE FINAL ${fmtSeconds(g?.optimize)}`,
    );
  }
  if (storage) {
    lines.push(
      `- Events table: ${fmtInt(storage.rows)} rows in ${storage.parts} parts, ${fmtMiB(storage.disk)} on disk ` +
        `(${fmtMiB(storage.raw)} uncompressed); the whole chDB directory ${fmtMiB(storage.dirBytes)}; ` +
        `${fmtInt(storage.persons)} person ids on events, ${fmtInt(storage.overrides)} override rows`,
    );
  }
  if (memory.afterOpen) {
    lines.push(
      `- Memory of the benchmark process (chDB inside): RSS ${fmtInt(memory.afterOpen.rss)} MiB with the data set open` +
        (memory.end ? `, ${fmtInt(memory.end.rss)} MiB after the queries, peak (VmHWM) ${fmtInt(memory.end.hwm)} MiB` : ''),
    );
  }
  lines.push(
    `- Method: per case ${WARMUP_RUNS} warm-up runs of each side, then ${RUNS} measured runs alternating hand-written SQL ` +
      '(`EventStore.query`, rows parsed) and Hoglet (`POST /api/projects/:id/query/` through `app.inject`, `refresh: "force_blocking"`); ' +
      'ms are wall time per query; ratio = Hoglet median ÷ hand-written median',
    '',
    '| case | hand-written median ms | min | max | Hoglet median ms | min | max | ratio | answer |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  );
  for (const row of rows) {
    const h = row.hand;
    const q = row.hoglet;
    lines.push(
      `| ${row.label} | ${fmtMs(h?.median)} | ${fmtMs(h?.min)} | ${fmtMs(h?.max)} | ` +
        (q ? `${fmtMs(q.median)} | ${fmtMs(q.min)} | ${fmtMs(q.max)} | ${(q.median / h.median).toFixed(2)}` : `${row.hogletNote ?? 'n/a'} | | | `) +
        ` | ${describeAnswer(row)} |`,
    );
  }
  lines.push('');

  const stepRows = rows.filter((row) => row.id.startsWith('funnel-') && row.id !== 'funnel-3' && row.hand);
  if (stepRows.length > 1) {
    const perStep = (side) => stepRows.map((row) => (row[side] ? `${row.steps}: ${(row[side].median / row.steps).toFixed(1)}` : null)).filter(Boolean);
    lines.push(`- Growth with steps, median ms per step — hand-written: ${perStep('hand').join(', ')}` +
      (perStep('hoglet').length ? `; Hoglet: ${perStep('hoglet').join(', ')}` : '; Hoglet: n/a'));
  }
  const byId = new Map(rows.map((row) => [row.id, row]));
  const aim = (label, row, limit) => {
    if (!row) return;
    if (!row.hoglet) {
      lines.push(`- ${label}: Hoglet pending (hand-written ${fmtMs(row.hand?.median)} ms)`);
      return;
    }
    lines.push(`- ${label}: **${row.hoglet.median < limit ? 'met' : 'not met'}** (Hoglet ${fmtMs(row.hoglet.median)} ms, hand-written ${fmtMs(row.hand.median)} ms)`);
  };
  aim(`Trend under ${AIM_TREND_MS} ms`, byId.get('trend'), AIM_TREND_MS);
  aim(`3-step funnel under ${AIM_FUNNEL3_MS} ms`, byId.get('funnel-3'), AIM_FUNNEL3_MS);
  const measured = rows.filter((row) => row.hoglet);
  const pending = rows.filter((row) => !row.hoglet).map((row) => row.id);
  const ratios = measured.map((row) => `${row.id} ${(row.hoglet.median / row.hand.median).toFixed(2)}`);
  const within = measured.every((row) => row.hoglet.median <= AIM_RATIO * row.hand.median);
  lines.push(
    `- Within ${AIM_RATIO}x of the hand-written SQL: ` +
      (measured.length ? `**${within ? 'met' : 'not met'}**${pending.length ? ' where measured' : ''} (${ratios.join(', ')})` : 'Hoglet pending') +
      (measured.length && pending.length ? `; pending: ${pending.join(', ')}` : ''),
  );
  lines.push(`- Funnel window: ${WINDOW_DAYS} days, inclusive; date range \`-30d\` = 31 UTC days up to the end of today`);
  lines.push(`- Load average (1 min) of the machine: ${loadAverages.map((l) => l.toFixed(2)).join(' at the start, ')} at the end (other work on the same cores slows both sides)`);
  for (const note of notes) lines.push(`- Note: ${note}`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

// ---------------------------------------------------------------------------------------------

await runAndExit([prepare, benchmark], { rows, failures, report });
