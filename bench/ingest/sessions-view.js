// The sessions view's cost on inserts: web events (posthog-js shaped, every one in a session)
// inserted with EventStore.insert, BENCH_ROWS_PER_INSERT at a time, with the view and without
// it (dropped and made again between runs), alternating, on one fresh store.
//   node bench/ingest/sessions-view.js [total events per run = 200000] [runs per side = 3]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../dist/config.js';
import { openEventStore } from '../../dist/storage/events/connect.js';
import { sessionEvents, sessionStatesSelect } from '../../dist/storage/events/migrations/0004_sessions.js';

const total = Number(process.argv[2] ?? 200_000);
const runs = Number(process.argv[3] ?? 3);
const perInsert = Number(process.env.BENCH_ROWS_PER_INSERT ?? 10_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-sessions-view-'));
const store = await openEventStore(loadConfig({ dataDir: dir }, {}).events);
const db = store.layout.database;

let clock = Date.now() * 1000;
let session = randomUUID();
const PAGES = ['/', '/pricing', '/docs', '/blog/a', '/blog/b', '/signup', '/about'];
function row(i) {
  clock += 1000;
  if (i % 12 === 0) session = randomUUID();
  const page = PAGES[i % PAGES.length];
  const event = i % 5 === 0 ? '$autocapture' : i % 11 === 0 ? '$pageleave' : '$pageview';
  const properties = {
    $session_id: session, $window_id: session, $current_url: `https://example.com${page}?q=${i % 3}`, $pathname: page, $host: 'example.com',
    $browser: 'Chrome', $browser_version: 120, $os: 'Mac OS X', $os_version: '14.1', $device_type: 'Desktop', $lib: 'web', $lib_version: '1.200.0',
    $referrer: '$direct', $referring_domain: '$direct', $screen_height: 1080, $screen_width: 1920, $viewport_height: 900, $viewport_width: 1600,
    $insert_id: randomUUID(), $time: clock / 1e6, distinct_id: `u${i % 5000}`, $device_id: `d${i % 5000}`, token: 'phc_x',
    ...(i % 12 === 0 ? { utm_source: 'news', utm_medium: 'email', $initial_referrer: '$direct' } : {}),
  };
  const ts = new Date(clock / 1000).toISOString().replace('T', ' ').replace('Z', '');
  return { uuid: randomUUID(), team_id: 1, event, distinct_id: `u${i % 5000}`, person_id: randomUUID(), properties, timestamp: ts, created_at: ts,
    $session_id: session, $group_0: '', $group_1: '', $group_2: '', $group_3: '', $group_4: '', elements_chain: '', historical_migration: false };
}

async function run() {
  const batches = [];
  for (let start = 0; start < total; start += perInsert) batches.push(Array.from({ length: perInsert }, (_, k) => row(start + k)));
  const started = performance.now();
  for (const rows of batches) await store.insert('events', rows);
  return total / ((performance.now() - started) / 1000);
}

const view = sessionsView();
const results = { with: [], without: [] };
await run(); // warm-up
for (let r = 0; r < runs; r++) {
  results.with.push(await run());
  await store.command(`DROP VIEW ${db}.sessions_mv`);
  results.without.push(await run());
  await store.command(view);
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(JSON.stringify({ total, perInsert, runs, events_per_s: { with_view: results.with.map(Math.round), without_view: results.without.map(Math.round) },
  median_with: Math.round(median(results.with)), median_without: Math.round(median(results.without)), ratio: +(median(results.with) / median(results.without)).toFixed(3) }));
const [size] = await store.query(`SELECT (SELECT count() FROM ${db}.events) AS events, (SELECT count() FROM (SELECT session_id FROM ${db}.sessions GROUP BY session_id)) AS sessions`);
console.log(JSON.stringify(size));
await store.close();
fs.rmSync(dir, { recursive: true, force: true });

function sessionsView() {
  return `CREATE MATERIALIZED VIEW ${db}.sessions_mv TO ${db}.sessions AS ${sessionStatesSelect(sessionEvents(`${db}.events`))}`;
}
