// Times named SQL statements against a benchmark data set, each in turn, to compare spellings of
// one query while looking for where time goes. `hoglet`.<table> names the data set's database.
//   node bench/query/statements.js <data dir> <statements.json: {"name": "SELECT …"}> [rounds=11]
// The first two rounds warm up; medians and minimums of the rest are printed. Run one statement
// per process when comparing: the engine's caches make a statement's neighbours change its time.
import fs from 'node:fs';
import { loadConfig } from '../../dist/config.js';
import { openEventStore } from '../../dist/storage/events/connect.js';

const [dataDir, file, roundsText = '11'] = process.argv.slice(2);
if (!dataDir || !file) {
  console.error('usage: node bench/query/statements.js <data dir> <statements.json> [rounds]');
  process.exit(2);
}
const store = await openEventStore(loadConfig({ dataDir }, {}).events);
const statements = JSON.parse(fs.readFileSync(file, 'utf8'));
const times = Object.fromEntries(Object.keys(statements).map((name) => [name, []]));
for (let round = 0; round < Number(roundsText); round++) {
  for (const [name, sql] of Object.entries(statements)) {
    const started = performance.now();
    await store.query(sql.replaceAll('`hoglet`.', `\`${store.layout.database}\`.`));
    if (round > 1) times[name].push(performance.now() - started);
  }
}
for (const [name, measured] of Object.entries(times)) {
  measured.sort((a, b) => a - b);
  console.log(`${name}: median ${Math.round(measured[Math.floor(measured.length / 2)])} ms, min ${Math.round(measured[0])} ms`);
}
await store.close();
