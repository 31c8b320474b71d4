// Does capture's repeated-uuid check grow with history? Fills the uuid index (event_uuids) of a
// fresh event store with 1M, 10M and 50M events' uuids (UUIDv7s spread evenly over the 90 days
// before now, as a store fills up over time), then times the check a flush makes
// (EventsRepository.existingUuids) for 100 and 5 000 fresh uuids (events made now) and for 5 000
// uuids of a week-old export sent again, first with the index as inserts leave it (many parts),
// then after OPTIMIZE FINAL (one part).
//
//   node bench/ingest/uuid-check.js            (uses dist/; npm run build first)
//   BENCH_SIZES=1,10 node bench/ingest/uuid-check.js   (millions of stored events)
//
// Prints a Markdown table to stdout; progress to stderr.
import { randomBytes } from 'node:crypto';
import { envList, log, makeTempDir, removeTempDir } from '../lib/harness.js';

const { openEventStore } = await import('../../dist/storage/events/connect.js');
const { loadConfig } = await import('../../dist/config.js');
const { EventsRepository } = await import('../../dist/storage/events/events-repository.js');

const SIZES_MILLIONS = envList('BENCH_SIZES', [1, 10, 50]);
const ROUNDS = 9;
const PART_ROWS = 1_000_000;
const TEAM = 1;
const DAY_MS = 86_400_000;

/** A UUIDv7 for a moment in ms: the time in the first 48 bits, the rest random. */
function uuidv7At(ms) {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = (bytes[6] & 0x0f) | 0x70;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

// The same layout in SQL, from columns h (the ms, 16 hex digits) and r1, r2 (16 random-looking hex
// digits each): ms in the first 12 hex digits, version 7, variant 10.
const UUID_FROM_PARTS = `toUUID(concat(substring(h, 5, 8), '-', substring(h, 13, 4), '-7', substring(r1, 1, 3), '-',
  substring('89ab', (cityHash64(number, 1) % 4) + 1, 1), substring(r1, 4, 3), '-', substring(r2, 1, 12)))`;
const hexSql = (expression) => `leftPad(lower(hex(${expression})), 16, '0')`;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timeCheck(repository, uuids) {
  const times = [];
  let found = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    found = (await repository.existingUuids(TEAM, uuids)).size;
    times.push(performance.now() - started);
  }
  return { ms: median(times), found };
}

const dataDir = makeTempDir('hoglet-uuid-check-');
const rows = [];
try {
  const store = await openEventStore(loadConfig({ dataDir }, {}).events);
  const repository = new EventsRepository(store);
  const db = store.layout.database;
  const now = Date.now();
  const start = now - 90 * DAY_MS;
  let stored = 0;
  for (const millions of SIZES_MILLIONS) {
    const target = millions * 1_000_000;
    // Grow the index to the target size in parts of a million (numbers continue, times spread evenly over the 90 days).
    while (stored < target) {
      const n = Math.min(PART_ROWS, target - stored);
      const ms = `toUInt64(${start} + intDiv((number) * ${90 * DAY_MS}, ${target}))`;
      await store.command(
        `INSERT INTO ${db}.event_uuids (team_id, uuid, distinct_id)
         SELECT ${TEAM}, ${UUID_FROM_PARTS}, concat('user-', toString(number % 20000))
         FROM (SELECT number, ${hexSql(ms)} AS h, ${hexSql('cityHash64(number)')} AS r1, ${hexSql('cityHash64(number, 2)')} AS r2
               FROM numbers(${stored}, ${n}))`,
        {},
        { lane: 'ingest', timeoutSeconds: 600 },
      );
      stored += n;
    }
    log(`${millions}M uuids stored`);
    const resent = (
      await store.query(
        `SELECT toString(uuid) AS u FROM ${db}.event_uuids WHERE team_id = ${TEAM} AND UUIDv7ToDateTime(uuid) < now() - INTERVAL 7 DAY ORDER BY uuid DESC LIMIT 5000`,
        {},
        { lane: 'ingest', timeoutSeconds: 600 },
      )
    ).map((r) => r.u);
    const fresh = (n) => Array.from({ length: n }, () => uuidv7At(Date.now()));
    for (const layout of ['as inserted', 'optimised']) {
      if (layout === 'optimised') await store.command(`OPTIMIZE TABLE ${db}.event_uuids FINAL`, {}, { lane: 'ingest', timeoutSeconds: 1200 });
      const [{ parts }] = await store.query(
        `SELECT count() AS parts FROM system.parts WHERE database = '${db}' AND table = 'event_uuids' AND active`,
        {},
        { lane: 'ingest' },
      );
      const fresh100 = await timeCheck(repository, fresh(100));
      const fresh5000 = await timeCheck(repository, fresh(5_000));
      const again = await timeCheck(repository, resent);
      rows.push({ millions, layout, parts, fresh100, fresh5000, again });
      log(`${millions}M ${layout}: ${fresh100.ms.toFixed(1)} / ${fresh5000.ms.toFixed(1)} / ${again.ms.toFixed(1)} ms`);
    }
  }
  await store.close();
} finally {
  removeTempDir(dataDir);
}

console.log(`| stored events | index layout | active parts | 100 fresh uuids ms | 5 000 fresh uuids ms | 5 000 re-sent (a week old) ms, found |`);
console.log(`| ---: | --- | ---: | ---: | ---: | ---: |`);
for (const r of rows) {
  console.log(`| ${r.millions}M | ${r.layout} | ${r.parts} | ${r.fresh100.ms.toFixed(1)} | ${r.fresh5000.ms.toFixed(1)} | ${r.again.ms.toFixed(1)}, ${r.again.found} |`);
}
