// `hoglet backup` and `hoglet restore` on a large data directory (issue 32): a copy of it is served,
// backed up while a small capture load runs, restored into a new directory and served again; the
// times, the archive's size and both servers' event counts are printed. Not run in CI.
//   npm run build && node bench/backup/measure.js <data dir> (e.g. the 10M-event one; it is copied first, never changed)
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';

const source = process.argv[2];
if (!source || !fs.existsSync(path.join(source, 'hoglet.sqlite3'))) throw new Error('usage: node bench/backup/measure.js <data dir>');
const bin = path.resolve('bin/hoglet.js');
const work = fs.mkdtempSync(path.join(process.env.BENCH_TMP ?? os.tmpdir(), 'hoglet-backup-bench-'));
const log = (message) => process.stderr.write(`bench: ${message}\n`);
const run = promisify(execFile);
const env = { ...process.env, DATABASE_URL: '', CLICKHOUSE_URL: '' };
const hoglet = (args) => run(process.execPath, [bin, ...args], { env, maxBuffer: 64 * 1024 * 1024 });
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(1);
const duBytes = async (dir) => Number((await run('du', ['-sb', dir])).stdout.split('\t')[0]);

async function serve(dir, port) {
  const child = spawn(process.execPath, [bin, 'serve', '--data-dir', dir, '--port', String(port), '--log-level', 'warn'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const started = Date.now();
  while (!(await fetch(`http://127.0.0.1:${port}/_health`).then((r) => r.ok, () => false))) {
    if (child.exitCode !== null) throw new Error(`the server on ${dir} exited`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  log(`server on ${path.basename(dir)} healthy after ${seconds(started)} s`);
  return child;
}

async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function count(port, key, projectId) {
  const response = await fetch(`http://127.0.0.1:${port}/api/projects/${projectId}/query/`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: { kind: 'HogQLQuery', query: "SELECT count(), countIf(event = 'bench backup') FROM events" } }),
  });
  if (!response.ok) throw new Error(`query: ${response.status} ${await response.text()}`);
  return (await response.json()).results[0];
}

const original = path.join(work, 'original');
let started = Date.now();
await run('cp', ['-a', source, original]);
log(`copied ${source} (${(await duBytes(original) / 1e9).toFixed(2)} GB) in ${seconds(started)} s`);
const db = new Database(path.join(original, 'hoglet.sqlite3'), { readonly: true });
const { email } = db.prepare('SELECT email FROM users ORDER BY id LIMIT 1').get();
const { id: projectId, api_token: token } = db.prepare('SELECT id, api_token FROM projects ORDER BY id LIMIT 1').get();
db.close();
const key = JSON.parse((await hoglet(['keys', 'create', '--email', email, '--scopes', '*', '--json', '--data-dir', original])).stdout).personal_api_key;

const server = await serve(original, 18901);
let sent = 0;
let loading = true;
const load = (async () => {
  while (loading) {
    const batch = Array.from({ length: 100 }, (_, i) => ({ event: 'bench backup', distinct_id: `bench-${sent}-${i}`, properties: { n: sent } }));
    const response = await fetch('http://127.0.0.1:18901/batch/', { method: 'POST', body: JSON.stringify({ api_key: token, batch }) });
    if (response.ok) sent++;
  }
})();
const archive = path.join(work, 'backup.tar');
started = Date.now();
const backup = await hoglet(['backup', '--data-dir', original, '--output', archive]);
const backupSeconds = seconds(started);
process.stderr.write(backup.stderr.replace(/^\d+%.*\n/gm, ""));
loading = false;
await load;
process.stdout.write(backup.stdout);
const manifest = JSON.parse(fs.readFileSync(archive).subarray(512, 512 + 4096).toString('utf8').replace(/\0[\s\S]*$/, ''));
log(`backup: ${backupSeconds} s, ${(fs.statSync(archive).size / 1e9).toFixed(2)} GB, taken at ${manifest.taken_at}, inserts paused ${manifest.paused_ms} ms; ${sent} requests of 100 events sent meanwhile`);
const originalCount = await count(18901, key, projectId);
await stop(server);

const copy = path.join(work, 'restored');
started = Date.now();
const restore = await hoglet(['restore', '--input', archive, '--data-dir', copy]);
const restoreSeconds = seconds(started);
process.stdout.write(restore.stdout);
log(`restore: ${restoreSeconds} s`);
const restored = await serve(copy, 18902);
const restoredCount = await count(18902, key, projectId);
await stop(restored);
log(`events (all, 'bench backup'): original after the load ${originalCount.join(', ')}; restored ${restoredCount.join(', ')}`);
process.stdout.write(`${JSON.stringify({ backup_s: Number(backupSeconds), restore_s: Number(restoreSeconds), archive_bytes: fs.statSync(archive).size, original: originalCount, restored: restoredCount, sent_requests: sent })}\n`);
if (!process.env.BENCH_KEEP) fs.rmSync(work, { recursive: true, force: true });
