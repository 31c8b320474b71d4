// The query benchmark's data set as a live server holds it: the events of a generated data set
// (bench/query/generate.js, merged into few parts) sent again through a running Hoglet's
// /batch/ endpoint, as SDKs and `hoglet import` send them: many small inserts, persons and merges
// worked out by Hoglet's capture, parts left as the server leaves them (no OPTIMIZE).
//
//   node bench/query/load-batch.js <generated-dir> <batch-dir>
//   then: BENCH_DATA_DIR=<batch-dir> node bench/query/run.js
//
// Steps: open <generated-dir> (generating it if missing, as run.js does) and write its events to
// <batch-dir>.jsonl in PostHog's export shape; bootstrap a project in <batch-dir>; start
// `hoglet serve` on it; run BENCH_IMPORTERS (default 4) `hoglet import` processes in parallel
// over slices of the file (each sends batches of 1 000 through /batch/); stop the server; write
// the marker run.js reads (the generated set's sizes, this project and key). Progress to stderr.
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { envNumber, log } from '../lib/harness.js';
import { MARKER, prepareDataSet } from './generate.js';

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const HOGLET = path.join(ROOT, 'bin', 'hoglet.js');
const IMPORTERS = envNumber('BENCH_IMPORTERS', 4, { integer: true });

const [source, target] = process.argv.slice(2).map((dir) => dir && path.resolve(dir));
if (!source || !target) {
  process.stderr.write('usage: node bench/query/load-batch.js <generated-dir> <batch-dir>\n');
  process.exit(2);
}
if (existsSync(path.join(target, MARKER))) {
  process.stderr.write(`${target} already holds a loaded data set (${MARKER}); remove it to load again\n`);
  process.exit(2);
}

const exportFile = `${target}.jsonl`;
const started = performance.now();
const seconds = () => ((performance.now() - started) / 1000).toFixed(1);

// 1. The generated events as export lines, in time order (as they would have arrived).
const { services, info } = await prepareDataSet(source);
const db = services.events.layout.database;
rmSync(exportFile, { force: true });
log(`exporting ${info.events} events to ${exportFile}`);
await services.events.command(
  `SELECT toString(uuid) AS uuid, event, distinct_id, formatDateTime(timestamp, '%Y-%m-%dT%H:%i:%S.%fZ') AS timestamp, properties
   FROM ${db}.events WHERE team_id = {team:UInt64} ORDER BY timestamp
   INTO OUTFILE '${exportFile.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}' FORMAT JSONEachRow`,
  { team: info.project_id },
  { settings: { max_execution_time: '3600' } },
);
await services.close();
log(`exported in ${seconds()} s`);

// 2. A project in the new directory.
mkdirSync(target, { recursive: true });
const hoglet = (args, options = {}) => execFileSync(process.execPath, [HOGLET, ...args, '--data-dir', target], { encoding: 'utf8', ...options });
const ids = JSON.parse(hoglet(['bootstrap', '--email', 'bench@example.com', '--organization', 'Bench', '--project', 'Query benchmark (batch)', '--json']));

// 3. Slices of the file, one per importer.
const slices = Array.from({ length: IMPORTERS }, (_, i) => `${exportFile}.${i}`);
const writers = slices.map((file) => createWriteStream(file));
let line = 0;
for await (const text of createInterface({ input: createReadStream(exportFile), crlfDelay: Infinity })) {
  // Consecutive runs of 1 000 lines per slice keep each importer's batches in time order.
  const writer = writers[Math.floor(line++ / 1000) % IMPORTERS];
  if (!writer.write(`${text}\n`)) await new Promise((resolve) => writer.once('drain', resolve));
}
await Promise.all(writers.map((w) => new Promise((resolve) => w.end(resolve))));

// 4. The server, and the importers through it.
const port = String(18000 + Math.floor(Math.random() * 1000));
const server = spawn(process.execPath, [HOGLET, 'serve', '--data-dir', target], { env: { ...process.env, PORT: port, HOGLET_LOG_LEVEL: 'warn' }, stdio: ['ignore', 'inherit', 'inherit'] });
for (let i = 0; ; i++) {
  const ok = await fetch(`http://127.0.0.1:${port}/_health`).then((r) => r.ok, () => false);
  if (ok) break;
  if (i > 600) throw new Error('the server did not start');
  await new Promise((resolve) => setTimeout(resolve, 100));
}
log(`server on port ${port}; importing with ${IMPORTERS} importers`);
const importStarted = performance.now();
const importers = [];
try {
  await Promise.all(slices.map((file) => new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [HOGLET, 'import', file, '--project', String(ids.project_id), '--data-dir', target], { env: { ...process.env, PORT: port }, stdio: ['ignore', 'pipe', 'pipe'] });
    importers.push(child);
    let out = '';
    child.stdout.on('data', (chunk) => { out += chunk; });
    child.stderr.on('data', (chunk) => { out += chunk; });
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`import of ${file} exited ${code}: ${out}`))));
  })));
} catch (error) {
  // One importer failing must not leave the server and the other importers running.
  for (const child of [...importers, server]) child.kill('SIGTERM');
  throw error;
}
const importSeconds = (performance.now() - importStarted) / 1000;
log(`imported in ${importSeconds.toFixed(1)} s (${Math.round(info.events / importSeconds)} events/s)`);
server.kill('SIGTERM');
await new Promise((resolve) => server.once('exit', resolve));
for (const file of slices) rmSync(file, { force: true });

// 5. The marker run.js reads: the same sizes, this project.
writeFileSync(path.join(target, MARKER), `${JSON.stringify({
  ...info,
  project_id: Number(ids.project_id),
  personal_api_key: ids.personal_api_key,
  loadedThrough: '/batch/',
  loadedFrom: source,
  importSeconds,
}, null, 2)}\n`);
log(`done in ${seconds()} s; now: BENCH_DATA_DIR=${target} node bench/query/run.js`);
