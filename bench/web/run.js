// Web app benchmark: how fast the app is usable and draws, in Debian's Chromium against a real
// `hoglet serve` on loopback.
//
//   npm run bench:web                        (builds dist/ and dist/web first)
//   node bench/web/run.js                    (uses the build already there)
//   BENCH_RUNS=9 node bench/web/run.js
//
// Measured, each BENCH_RUNS times in a fresh browser context (no cache), medians reported:
//   - the bundle: bytes and gzip'd bytes of every file the app's index.html loads;
//   - first page usable: from navigation to the sign-in form being interactive;
//   - time to first chart: from navigating to a saved trend (signed in) to its legend showing;
//   - drawing 10 series x 90 days: from the query's response arriving in the browser to the chart,
//     legend and numbers being on screen, and the server's own time for that answer apart.
// The data: 10 events over the last 90 days (3 000 persons, ~60 000 events) sent through /batch/.
import { gzipSync } from 'node:zlib';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import {
  HOGLET_BIN, HOST, ROOT, bootstrapHoglet, coresDescription, envNumber, freePort, installCleanup, log, makeTempDir,
  percentile, showLeftoverOutput, startChild, stopChild, waitForReady,
} from '../lib/harness.js';

const RUNS = envNumber('BENCH_RUNS', 5, { integer: true });
const CHROMIUM = process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium';
const PASSWORD = 'benchmark passphrase';
const EVENTS = Array.from({ length: 10 }, (_, i) => `event_${i}`);
const DAYS = 90;
const PERSONS = 3_000;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const median = (values) => percentile([...values].sort((a, b) => a - b), 50);

/** Every asset index.html names, with its raw and gzip'd size. */
function bundleSizes() {
  const dir = path.join(ROOT, 'dist', 'web');
  const html = readFileSync(path.join(dir, 'index.html'));
  const assets = [...html.toString().matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
  const files = [{ name: 'index.html', bytes: html }, ...assets.map((name) => ({ name, bytes: readFileSync(path.join(dir, name)) }))];
  return files.map(({ name, bytes }) => ({ name, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length }));
}

/** Deterministic events: every person does a few of the ten events on a few of the 90 days. */
function* eventBatches(now) {
  let seed = 20261126;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  let batch = [];
  for (let p = 0; p < PERSONS; p++) {
    const visits = 1 + Math.floor(random() * 8);
    for (let v = 0; v < visits; v++) {
      const day = Math.floor(random() * DAYS);
      const at = new Date(now - day * 86_400_000 - Math.floor(random() * 86_400_000)).toISOString();
      for (const event of EVENTS) {
        if (random() < 0.3) batch.push({ event, distinct_id: `person-${p}`, timestamp: at, properties: { $browser: random() < 0.5 ? 'Chrome' : 'Firefox' } });
      }
      if (batch.length >= 1_000) {
        yield batch;
        batch = [];
      }
    }
  }
  if (batch.length) yield batch;
}

async function main() {
  installCleanup({ overallTimeoutMs: 15 * 60_000, stopping: () => {} });
  const dataDir = makeTempDir('hoglet-bench-web-');
  const ids = await bootstrapHoglet(dataDir, ['project_id', 'personal_api_key', 'project_api_token'], 60_000);
  execFileSync(process.execPath, [HOGLET_BIN, 'users', 'set-password', '--email', 'bench@example.com', '--password', PASSWORD, '--data-dir', dataDir], { cwd: ROOT });
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const server = startChild('hoglet', [HOGLET_BIN, 'serve', '--port', String(port), '--host', HOST, '--data-dir', dataDir, '--log-level', 'warn']);
  await waitForReady(server, `${base}/_health`, 60_000);
  const api = (method, url, body) => fetch(`${base}${url}`, {
    method, headers: { authorization: `Bearer ${ids.personal_api_key}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body),
  }).then(async (r) => { if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`); return r.json(); });

  log(`sending ${PERSONS} persons' events over ${DAYS} days through /batch/`);
  let sent = 0;
  for (const batch of eventBatches(Date.now())) {
    await fetch(`${base}/batch/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: ids.project_api_token, batch }) });
    sent += batch.length;
  }
  const query = {
    kind: 'TrendsQuery',
    series: EVENTS.map((event) => ({ kind: 'EventsNode', event, name: event })),
    dateRange: { date_from: `-${DAYS - 1}d` },
    interval: 'day',
  };
  const insight = await api('POST', `/api/projects/${ids.project_id}/insights/`, { name: '10 series, 90 days', query: { kind: 'InsightVizNode', source: query } });
  // The server's own time for that answer (blocking, then cached: what the page reads).
  const serverMs = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await api('GET', `/api/projects/${ids.project_id}/insights/${insight.id}/?refresh=force_blocking`);
    serverMs.push(performance.now() - started);
  }

  // Issue 31's pages, each usable when its main control or table is on screen (data loaded).
  const project = `/project/${ids.project_id}`;
  const PAGES = [
    ['SQL editor (CodeMirror ready)', `${project}/sql`, '.cm-content'],
    ['Actions', `${project}/actions`, '[data-testid="actions-table"]'],
    ['Data management', `${project}/data-management/events`, '[data-testid="definitions-table"]'],
    ['Cohorts', `${project}/cohorts`, '[data-testid="cohorts-table"]'],
    ['Dashboards', `${project}/dashboard`, '[data-testid="dashboards-table"]'],
    ['Groups', `${project}/groups`, '[data-testid="group-types"], [data-testid="no-group-types"]'],
    ['Settings: members', `${project}/settings/members`, '[data-testid="members-table"]'],
    ['Settings: personal API keys', `${project}/settings/personal-api-keys`, '[data-testid="keys-table"]'],
  ];
  const pageUsable = new Map(PAGES.map(([name]) => [name, []]));

  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const usable = [];
  const firstChart = [];
  const drawing = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      let started = performance.now();
      await page.goto(`${base}/login`);
      await page.getByLabel(/email/i).waitFor();
      usable.push(performance.now() - started);
      await page.getByLabel(/email/i).fill('bench@example.com');
      await page.getByLabel(/password/i).fill(PASSWORD);
      await Promise.all([page.waitForURL(/\/project\//), page.getByRole('button', { name: /sign in/i }).click()]);

      started = performance.now();
      let answered = 0;
      page.on('response', (response) => {
        const path = new URL(response.url()).pathname;
        if (response.request().method() === 'GET' && (path.endsWith(`/insights/${insight.id}/`) || path.endsWith(`/insights/${insight.short_id}/`))) answered = performance.now();
      });
      await page.goto(`${base}/project/${ids.project_id}/insights/${insight.short_id}`);
      await page.getByTestId('legend').getByText('event_9').waitFor();
      // The frame after the legend appears has the chart painted too.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      const shown = performance.now();
      if (!answered) throw new Error("the page's request for the insight was not seen");
      firstChart.push(shown - started);
      drawing.push(shown - answered);
      // Each page opened by address in the signed-in context (the bundle cached, as a member's
      // browser has it), until usable.
      for (const [name, path, selector] of PAGES) {
        started = performance.now();
        await page.goto(`${base}${path}`);
        await page.locator(selector).first().waitFor();
        pageUsable.get(name).push(performance.now() - started);
      }
      await context.close();
    }
  } finally {
    await browser.close();
    const problem = await stopChild(server, 10_000);
    if (problem) log(problem);
    showLeftoverOutput(server);
  }

  const sizes = bundleSizes();
  const total = sizes.reduce((sum, f) => ({ raw: sum.raw + f.raw, gzip: sum.gzip + f.gzip }), { raw: 0, gzip: 0 });
  const kb = (bytes) => (bytes / 1024).toFixed(1);
  const ms = (values) => `${median(values).toFixed(0)} (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
  console.log(`## Web app (${new Date().toISOString().slice(0, 10)})

${coresDescription()}; Chromium ${browser.version()}; ${sent} events of ${PERSONS} persons over ${DAYS} days, sent through /batch/; ${RUNS} runs, fresh browser context each (nothing cached).

| file | bytes | gzip'd |
| --- | ---: | ---: |
${sizes.map((f) => `| ${f.name} | ${kb(f.raw)} KB | ${kb(f.gzip)} KB |`).join('\n')}
| **all** | ${kb(total.raw)} KB | **${kb(total.gzip)} KB** |

| measure (ms, median (min–max)) | value | aim |
| --- | ---: | ---: |
| first page usable (sign-in form interactive) | ${ms(usable)} | < 1 000 |
| time to first chart (a saved trend of 10 series x ${DAYS} days, signed in) | ${ms(firstChart)} | |
| drawing it: response in the browser -> chart, legend and numbers on screen | ${ms(drawing)} | < 200 |
| the server's answer for it (\`refresh=force_blocking\`, from outside) | ${ms(serverMs)} | |

| page (signed in, bundle cached; ms until usable, median (min–max)) | value | aim |
| --- | ---: | ---: |
${PAGES.map(([name]) => `| ${name} | ${ms(pageUsable.get(name))} | < 300 |`).join('\n')}
`);
}

main().catch((error) => {
  log(`FAILED: ${error.stack ?? error}`);
  process.exit(1);
});
