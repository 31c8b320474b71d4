// A floor beside the ingest step: the summary row /s/ inserts per stored block, alone. The same
// row as ReplayService's (one synced INSERT into session_replay_events with its deduplication
// token, on the persons lane, which runs one statement at a time), one after another, on an event
// store this process opens on a temporary directory: what one INSERT costs, which /s/ now shares
// among the requests of a group commit (src/core/replay/summary-rows.ts).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, makeTempDir, removeTempDir, withTimeout } from '../lib/harness.js';

const dist = (...parts) => pathToFileURL(path.join(ROOT, 'dist', ...parts)).href;

/** Milliseconds per summary INSERT over `count` sequential inserts (after 20 not counted). */
export async function summaryInsertMs(count) {
  const [{ loadConfig }, { openEventStore }] = await Promise.all([import(dist('config.js')), import(dist('storage', 'events', 'connect.js'))]);
  const dir = makeTempDir('hoglet-bench-replay-summary-');
  const store = await withTimeout(openEventStore(loadConfig({ dataDir: dir }, {}).events), 60_000, 'opening an event store');
  const insert = (i) => store.command(
    `INSERT INTO ${store.layout.database}.session_replay_events SETTINGS insert_deduplication_token = 'bench/${i}'
     SELECT 1, {session:String}, 'visitor', now64(6), now64(6), argMinState(CAST('http://shop/' AS Nullable(String)), now64(6)), ['http://shop/'],
       3, 10, 20, 5000, 0, 0, 0, 20000, 1, 40,
       argMinState(CAST('web' AS LowCardinality(Nullable(String))), now64(6)), argMinState(CAST('web' AS Nullable(String)), now64(6)), 1, now(), ['bench']`,
    { session: `session-${i % 100}` },
    { lane: 'persons' },
  );
  try {
    for (let i = 0; i < 20; i++) await insert(-1 - i);
    const started = performance.now();
    for (let i = 0; i < count; i++) await insert(i);
    return (performance.now() - started) / count;
  } finally {
    await store.close();
    removeTempDir(dir);
  }
}
