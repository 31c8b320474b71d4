// Event retention's two ways of removing a month of one project's events (issue 32), timed on one
// fresh embedded store: a lightweight DELETE while another project keeps the month, and a
// partition drop once none does. Each way also removes the events' uuid index rows and sessions,
// as the retention job does (src/core/retention/event-retention.ts). Not run in CI.
//   npm run build && node bench/retention/month-drop.js [events per month = 1000000]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../dist/config.js';
import { openEventStore } from '../../dist/storage/events/connect.js';
import { EventRetentionStore } from '../../dist/storage/events/retention-repository.js';

const events = Number(process.argv[2] ?? 1_000_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-retention-bench-'));
const store = await openEventStore(loadConfig({ dataDir: dir }, {}).events);
const db = store.layout.database;
const retention = new EventRetentionStore(store);
const log = (message) => process.stderr.write(`bench: ${message}\n`);

/** `count` events of a project spread over the month, 12 to a session, through the real views. */
async function fill(team, month, count) {
  const seconds = Math.floor((31 * 86_400) / count * 1e6) / 1e6;
  await store.command(
    `INSERT INTO ${db}.events
     SELECT generateUUIDv4(number), ${team}, if(number % 5 = 0, '$autocapture', '$pageview'), concat('u', toString(number % 5000)), generateUUIDv4(number + 1),
       concat('{"$current_url":"https://example.com/p', toString(number % 7), '","$session_id":"s', toString(intDiv(number, 12)), '"}'),
       toDateTime64('${month}-01 00:00:00', 6, 'UTC') + toIntervalMicrosecond(toUInt64(number * ${seconds} * 1000000)), now64(6, 'UTC'),
       concat('s${team}-', toString(intDiv(number, 12))), '', '', '', '', '', '', false
     FROM numbers(${count})`,
    {},
    { timeoutSeconds: 3600, settings: { max_insert_block_size: '100000', max_block_size: '100000' } },
  );
}

async function counts(team) {
  const one = async (sql) => Number((await store.query(sql, { team }, { timeoutSeconds: 600 }))[0].n);
  return {
    events: await one(`SELECT count() AS n FROM ${db}.events WHERE team_id = {team:UInt64}`),
    uuids: await one(`SELECT count() AS n FROM ${db}.event_uuids WHERE team_id = {team:UInt64}`),
    sessions: await one(`SELECT count(DISTINCT session_id) AS n FROM ${db}.sessions WHERE team_id = {team:UInt64}`),
  };
}

async function bytesOnDisk() {
  const rows = await store.query(`SELECT sum(bytes_on_disk) AS b FROM system.parts WHERE database = {db:String} AND table = 'events' AND active`, { db });
  return Number(rows[0].b);
}

async function timed(what, work) {
  const started = performance.now();
  await work();
  const ms = performance.now() - started;
  log(`${what}: ${(ms / 1000).toFixed(2)} s`);
  return ms;
}

const cutoff = '2024-06-01 00:00:00';
const results = {};
try {
  log(`filling: project 1 with ${events} events in 2024-01 beside project 2 (1000 events, keeps the month); project 3 with ${events} in 2024-03 alone`);
  await timed('fill', async () => {
    await fill(1, '2024-01', events);
    await fill(2, '2024-01', 1000);
    await fill(3, '2024-03', events);
  });
  await store.command(`OPTIMIZE TABLE ${db}.events FINAL`, {}, { timeoutSeconds: 3600 });
  log(`before: project 1 ${JSON.stringify(await counts(1))}, project 3 ${JSON.stringify(await counts(3))}, events on disk ${(await bytesOnDisk() / 1e6).toFixed(1)} MB`);

  results.find = await timed('find the expired months of project 1', () => retention.expiredMonths(1, cutoff));
  results.deleteUuids = await timed('DELETE: uuid index rows of project 1', () => retention.forgetUuids(1, '202401', cutoff));
  results.deleteEvents = await timed('DELETE: events of project 1 in 2024-01', () => retention.deleteEvents(1, '202401', cutoff));
  results.deleteSessions = await timed('DELETE: sessions of project 1', () => retention.deleteSessions(1, cutoff));
  log(`after DELETE: project 1 ${JSON.stringify(await counts(1))}, project 2 ${JSON.stringify(await counts(2))}, events on disk ${(await bytesOnDisk() / 1e6).toFixed(1)} MB (the masked rows' bytes go at the parts' next merge)`);

  results.applyMask = await timed('DELETE: the month\'s parts rewritten without the masked rows (APPLY DELETED MASK)', () => retention.applyDeletes('202401', true));
  log(`after APPLY DELETED MASK: events on disk ${(await bytesOnDisk() / 1e6).toFixed(1)} MB`);

  results.dropUuids = await timed('DROP: uuid index rows of project 3', () => retention.forgetUuids(3, '202403', cutoff));
  results.dropMonth = await timed('DROP: partition 202403', () => retention.dropMonth('202403'));
  results.dropSessions = await timed('DROP: sessions of project 3', () => retention.deleteSessions(3, cutoff));
  log(`after DROP: project 3 ${JSON.stringify(await counts(3))}, events on disk ${(await bytesOnDisk() / 1e6).toFixed(1)} MB`);

  const s = (ms) => (ms / 1000).toFixed(2);
  const deleteTotal = results.deleteUuids + results.deleteEvents + results.deleteSessions;
  const dropTotal = results.dropUuids + results.dropMonth + results.dropSessions;
  console.log(`| way | uuid index rows | events | sessions | total (reads exclude them) | disk freed |`);
  console.log(`| --- | --- | --- | --- | --- | --- |`);
  console.log(`| lightweight DELETE (${events} events of one project, month kept by another) | ${s(results.deleteUuids)} s | ${s(results.deleteEvents)} s | ${s(results.deleteSessions)} s | ${s(deleteTotal)} s | APPLY DELETED MASK ${s(results.applyMask)} s |`);
  console.log(`| partition drop (${events} events, month kept by none) | ${s(results.dropUuids)} s | ${s(results.dropMonth)} s | ${s(results.dropSessions)} s | ${s(dropTotal)} s | at once |`);
  console.log(`load average at the end: ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
} finally {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
