// The Web analytics page's first load, as the page runs it: its six queries (overview, the graph's
// TrendsQuery, Top paths, Channels, Browsers, the country map) sent at once over HTTP to
// POST /api/projects/:id/query/ (refresh "force_blocking"), on a data set made by generate.js or
// load-batch.js. Reports each query's time and the wall time until the last answer (issue 30 aim:
// under 2 s together). Pinned periods: the 7 days of web-cases.js, compared.
//
//   BENCH_DATA_DIR=/tmp/qb-10m-batch node bench/query/web-page.js      (BENCH_RUNS, default 7)
import os from 'node:os';
import path from 'node:path';
import { envNumber, fmtMs, installCleanup, log, runAndExit, withTimeout } from '../lib/harness.js';
import { prepareDataSet, loadDist } from './generate.js';
import { statsQuery, webBase, webPeriods } from './web-cases.js';

const RUNS = envNumber('BENCH_RUNS', 7, { integer: true });
const WARMUP_RUNS = 2;
const DATA_DIR = process.env.BENCH_DATA_DIR ? path.resolve(process.env.BENCH_DATA_DIR) : null;
const AIM_PAGE_MS = 2000;

installCleanup({ overallTimeoutMs: 30 * 60_000, stopping: 'the web page benchmark' });

const rows = [];
const failures = [];
let services = null;
let app = null;
let info = null;
let base = null;
const loads = [];

function pageQueries(dateRange) {
  return {
    overview: { kind: 'WebOverviewQuery', ...webBase(dateRange) },
    graph: {
      kind: 'TrendsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview', custom_name: 'Visitors', math: 'dau' }],
      dateRange, interval: 'day', trendsFilter: { display: 'ActionsLineGraph' }, filterTestAccounts: false, properties: [],
    },
    'paths (Page)': statsQuery('Page', dateRange),
    'sources (InitialChannelType)': statsQuery('InitialChannelType', dateRange),
    'devices (Browser)': statsQuery('Browser', dateRange),
    'map (Country)': statsQuery('Country', dateRange, 300),
  };
}

async function prepare() {
  if (!DATA_DIR) throw new Error('set BENCH_DATA_DIR to a data set made by generate.js or load-batch.js');
  const opened = await prepareDataSet(DATA_DIR);
  services = opened.services;
  info = opened.info;
  const { buildApp } = await loadDist();
  app = await buildApp(services, { logger: { level: 'error', stream: process.stderr } });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  base = `${address}/api/projects/${info.project_id}/query/`;
}

async function one(query) {
  const started = performance.now();
  const response = await withTimeout(fetch(base, {
    method: 'POST',
    headers: { authorization: `Bearer ${info.personal_api_key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query, refresh: 'force_blocking' }),
  }), 120_000, 'a page query');
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${query.kind}: ${response.status} ${body.slice(0, 300)}`);
  return performance.now() - started;
}

async function page(queries) {
  const started = performance.now();
  const each = await Promise.all(Object.values(queries).map(one));
  return { total: performance.now() - started, each };
}

async function benchmark() {
  const queries = pageQueries(webPeriods(info.nowMs, 7).dateRange);
  try {
    for (let i = 0; i < WARMUP_RUNS; i++) await page(queries);
    loads.push(os.loadavg()[0]);
    for (let i = 0; i < RUNS; i++) {
      const run = await page(queries);
      rows.push(run);
      log(`page ${i + 1}: ${fmtMs(run.total)} ms (${run.each.map(fmtMs).join(', ')})`);
    }
    loads.push(os.loadavg()[0]);
  } finally {
    if (app) await app.close().catch((error) => failures.push(`closing the app: ${error.message}`));
    if (services) await services.close().catch((error) => failures.push(`closing the services: ${error.message}`));
  }
  rows.names = Object.keys(queries);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

function report() {
  if (rows.length === 0) return;
  const lines = [
    `- Data set: ${DATA_DIR}; ${RUNS} page loads after ${WARMUP_RUNS} warm-up loads, the six queries sent at once over HTTP`,
    '',
    '| query | median ms | min | max |',
    '| --- | ---: | ---: | ---: |',
  ];
  (rows.names ?? []).forEach((name, i) => {
    const values = rows.map((r) => r.each[i]);
    lines.push(`| ${name} | ${fmtMs(median(values))} | ${fmtMs(Math.min(...values))} | ${fmtMs(Math.max(...values))} |`);
  });
  const totals = rows.map((r) => r.total);
  lines.push(`| **whole page (wall time until the last answer)** | **${fmtMs(median(totals))}** | ${fmtMs(Math.min(...totals))} | ${fmtMs(Math.max(...totals))} |`, '');
  lines.push(`- Whole page under ${AIM_PAGE_MS} ms: **${median(totals) < AIM_PAGE_MS ? 'met' : 'not met'}**`);
  lines.push(`- Load average (1 min): ${loads.map((l) => l.toFixed(2)).join(' at the start, ')} at the end`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

await runAndExit([prepare, benchmark], { rows, failures, report });
