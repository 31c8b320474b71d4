import { Session } from 'chdb';
import { mkdtempSync } from 'node:fs';
const dir = mkdtempSync('/tmp/chkill-');
const a = new Session(dir);
const b = new Session(dir);
const t0 = Date.now();
const long = a.queryAsync("SELECT sum(cityHash64(number)) AS marker_xyz FROM numbers(30000000000) SETTINGS max_threads=2", { format: 'TSV' })
  .then((r) => console.log('A done', Date.now() - t0, String(r).trim()), (e) => console.log('A error', Date.now() - t0, e.message.slice(0, 200)));
await new Promise((r) => setTimeout(r, 3000));
try { console.log('processes:', b.query("SELECT query_id, elapsed, substring(query, 1, 60) FROM system.processes", 'TSV')); } catch (e) { console.log('B err', e.message.slice(0, 200)); }
try { console.log('kill:', b.query("KILL QUERY WHERE query LIKE '%marker_xyz%' AND query NOT LIKE '%KILL%' ASYNC", 'TSV')); } catch (e) { console.log('B kill err', e.message.slice(0, 200)); }
console.log('kill issued at', Date.now() - t0);
await long;
a.close(); b.close();
