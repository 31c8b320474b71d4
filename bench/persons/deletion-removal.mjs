// How long a deleted person's events take to be physically gone (issue 32), on embedded chDB.
// Not run in CI: `node bench/persons/deletion-removal.mjs [events]` (default 1,000,000).
//
// One person's events (100 of them among N) are deleted three ways on an events table shaped as
// Hoglet's (ReplacingMergeTree, partitioned by month, ordered as migration 1 orders it):
//   1. lightweight DELETE (what Hoglet runs): masked at once, the bytes stay in the parts;
//      then APPLY DELETED MASK, which rewrites the parts without the masked rows;
//   2. lightweight DELETE, then OPTIMIZE FINAL (a merge drops masked rows too);
//   3. ALTER TABLE … DELETE (a classic mutation: rewrites every part it touches, returns when done).
// Prints each step's time and the rows still in the parts' files (read with apply_deleted_mask=0).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Session } from 'chdb';

const TOTAL = Number(process.argv[2] ?? 1_000_000);
const PER_PERSON = 100;
const TARGET = 'user-42';
const SYNC = "SETTINGS mutations_sync = 2, lightweight_deletes_sync = 2";

function timed(session, label, sql) {
  const started = process.hrtime.bigint();
  session.query(sql);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  console.log(`${label.padEnd(44)} ${ms.toFixed(0).padStart(7)} ms`);
  return ms;
}

const count = (session, extra = '') =>
  Number(session.query(`SELECT count() FROM bench.events WHERE distinct_id = '${TARGET}' ${extra}`, 'CSV').trim());

function fresh() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-deletion-bench-'));
  const session = new Session(dir);
  session.query('CREATE DATABASE IF NOT EXISTS bench');
  session.query(`CREATE TABLE bench.events (
      uuid UUID, team_id UInt64, event String, distinct_id String, person_id UUID, properties String,
      timestamp DateTime64(6, 'UTC'), created_at DateTime64(6, 'UTC'), \`$session_id\` String, elements_chain String
    ) ENGINE = ReplacingMergeTree PARTITION BY toYYYYMM(timestamp)
    ORDER BY (team_id, toDate(timestamp), event, cityHash64(distinct_id), cityHash64(uuid))`);
  // Ten inserts (ten parts or more per month), spread over three months, one person per 100 events.
  const chunk = Math.ceil(TOTAL / 10);
  for (let start = 0; start < TOTAL; start += chunk) {
    session.query(`INSERT INTO bench.events SELECT generateUUIDv4(), 1, ['$pageview', '$autocapture', 'signed_up'][number % 3 + 1],
        concat('user-', toString(intDiv(number, ${PER_PERSON}))), generateUUIDv4(),
        concat('{"$browser":"Chrome","$current_url":"https://example.com/page/', toString(number % 500), '","plan":"pro"}'),
        toDateTime64('2024-01-01 00:00:00', 6, 'UTC') + toIntervalSecond(number * 7776000 / ${TOTAL}), now64(6), toString(intDiv(number, 20)), ''
      FROM numbers(${start}, ${Math.min(chunk, TOTAL - start)})`);
  }
  return { session, dir };
}

function close({ session, dir }) {
  session.close();
  fs.rmSync(dir, { recursive: true, force: true });
}

console.log(`${TOTAL} events, ${TOTAL / PER_PERSON} persons; deleting ${TARGET}'s ${PER_PERSON} events\n`);

{
  const store = fresh();
  const { session } = store;
  timed(session, '1. lightweight DELETE (reads exclude on return)', `DELETE FROM bench.events WHERE team_id = 1 AND distinct_id = '${TARGET}' ${SYNC}`);
  console.log(`   visible ${count(session)}, still in the parts' files ${count(session, 'SETTINGS apply_deleted_mask = 0')}`);
  timed(session, '   then APPLY DELETED MASK (physically gone)', `ALTER TABLE bench.events APPLY DELETED MASK ${SYNC}`);
  console.log(`   still in the parts' files ${count(session, 'SETTINGS apply_deleted_mask = 0')}`);
  close(store);
}
{
  const store = fresh();
  const { session } = store;
  timed(session, '2. lightweight DELETE', `DELETE FROM bench.events WHERE team_id = 1 AND distinct_id = '${TARGET}' ${SYNC}`);
  timed(session, '   then OPTIMIZE TABLE FINAL (merge drops them)', 'OPTIMIZE TABLE bench.events FINAL');
  console.log(`   still in the parts' files ${count(session, 'SETTINGS apply_deleted_mask = 0')}`);
  close(store);
}
{
  const store = fresh();
  const { session } = store;
  timed(session, '3. ALTER TABLE DELETE (mutation)', `ALTER TABLE bench.events DELETE WHERE team_id = 1 AND distinct_id = '${TARGET}' ${SYNC}`);
  console.log(`   visible ${count(session)}, still in the parts' files ${count(session, 'SETTINGS apply_deleted_mask = 0')}`);
  close(store);
}
