// Diagnosis only: `hoglet serve` that appends one JSON line per interval to a file, for the
// sustained-load benchmark (bench/ingest/sustained.js): memory, the active parts of the tables
// capture writes, the inserter's backlog and the mean time of its writes in the interval. It wraps
// methods of the compiled classes in dist/, so it changes nothing in src/.
//
//   node bench/ingest/sampled-serve.js --data-dir DIR --port P --samples FILE [--every-ms 30000]
import { appendFileSync } from 'node:fs';
import { flag, loadDist as load, serveFromFlags } from './wrapped-serve.js';

const [{ EventStore }, { EventWriter }, { CaptureInserter }] = await Promise.all([
  load('storage/events/event-store.js'),
  load('core/capture/event-writer.js'),
  load('core/capture/inserter.js'),
]);

const samplesFile = flag('--samples');
const everyMs = Number(flag('--every-ms') ?? 30_000);

// The instances, caught on their first use.
let store = null;
let inserter = null;
const query = EventStore.prototype.query;
EventStore.prototype.query = function caught(...callArgs) {
  store ??= this;
  return query.apply(this, callArgs);
};
const enqueue = CaptureInserter.prototype.enqueue;
CaptureInserter.prototype.enqueue = function caught(...callArgs) {
  inserter ??= this;
  return enqueue.apply(this, callArgs);
};
let writes = { calls: 0, ms: 0, events: 0 };
const write = EventWriter.prototype.write;
EventWriter.prototype.write = async function timed(items) {
  const started = performance.now();
  try {
    return await write.call(this, items);
  } finally {
    writes.calls += 1;
    writes.ms += performance.now() - started;
    writes.events += items.reduce((n, item) => n + item.events.length, 0);
  }
};

const startedAt = Date.now();
async function sample() {
  const window = writes;
  writes = { calls: 0, ms: 0, events: 0 };
  let parts = {};
  if (store) {
    const rows = await store.query(
      `SELECT table, count() AS parts, sum(rows) AS rows FROM system.parts WHERE database = {db:String} AND active GROUP BY table`,
      { db: store.layout.database },
      { lane: 'ingest' },
    );
    parts = Object.fromEntries(rows.map((r) => [r.table, { parts: Number(r.parts), rows: Number(r.rows) }]));
  }
  const line = {
    seconds: Math.round((Date.now() - startedAt) / 1000),
    rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
    heapMiB: Math.round(process.memoryUsage().heapUsed / 2 ** 20),
    backlog: inserter?.backlog ?? 0,
    writes: window.calls,
    writeMs: window.calls ? window.ms / window.calls : null,
    eventsPerWrite: window.calls ? window.events / window.calls : null,
    parts,
  };
  appendFileSync(samplesFile, `${JSON.stringify(line)}\n`);
}
setInterval(() => void sample().catch((error) => process.stderr.write(`sample failed: ${error.message}\n`)), everyMs).unref();

await serveFromFlags();
