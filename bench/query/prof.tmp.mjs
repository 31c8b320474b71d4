// scratch profiler (not committed)
import { readFileSync, writeFileSync } from 'node:fs';
import { prepareDataSet, loadDist } from './generate.js';
const { services, info } = await prepareDataSet('/tmp/qb-10m-v2');
const { buildApp } = await loadDist();
const app = await buildApp(services, { logger: { level: 'error' } });
await app.ready();
const mode = process.argv[2];
const captured = [];
const origQuery = services.events.query.bind(services.events);
services.events.query = (sql, params, ...rest) => { captured.push({ sql, params }); return origQuery(sql, params, ...rest); };

async function hog(query) {
  const t = performance.now();
  const r = await app.inject({ method: 'POST', url: `/api/projects/${info.project_id}/query/`,
    headers: { authorization: `Bearer ${info.personal_api_key}`, 'content-type': 'application/json' },
    payload: { query, refresh: 'force_blocking' } });
  return { ms: performance.now() - t, body: r.json() };
}
async function sql(text, params = {}) {
  const t = performance.now();
  const rows = await services.events.query(text, params);
  return { ms: performance.now() - t, rows };
}
import { benchCases, dateRange } from './handwritten.js';
const cases = () => benchCases({ db: services.events.layout.database, team: info.project_id, range: dateRange(Date.now()) });
const runs = Number(process.env.RUNS ?? 3);
if (mode === 'hog') {
  const q = JSON.parse(readFileSync(process.argv[3], 'utf8'));
  let last;
  for (let i = 0; i < runs; i++) { last = await hog(q); console.log('ms', last.ms.toFixed(0)); }
  writeFileSync('/tmp/prof/last.sql', last.body.hogql ?? JSON.stringify(last.body));
  console.log(JSON.stringify(last.body.results).slice(0, 600));
} else if (mode === 'hand' || mode === 'hogcase') {
  for (const id of process.argv.slice(3)) {
    const c = cases().find((x) => x.id === id);
    for (let i = 0; i < runs; i++) {
      if (mode === 'hand') { const r = await sql(c.hand.sql, c.hand.params); console.log(id, 'hand ms', r.ms.toFixed(0)); }
      else { const r = await hog(c.hoglet.query); console.log(id, 'hoglet ms', r.ms.toFixed(0)); if (i === runs - 1) writeFileSync(`/tmp/prof/${id}.json`, JSON.stringify(captured.at(-1))); }
    }
  }
} else if (mode === 'json') {
  // a captured {sql, params} file, with optional sed-like replacements applied by the caller beforehand
  for (const f of process.argv.slice(3)) {
    const { sql: text, params } = JSON.parse(readFileSync(f, 'utf8'));
    for (let i = 0; i < runs; i++) { try { const r = await sql(text, params); console.log(f, 'ms', r.ms.toFixed(0), JSON.stringify(r.rows).slice(0, 200)); } catch (e) { console.log(f, 'ERR', e.message.slice(0, 400)); break; } }
  }
} else if (mode === 'sql') {
  for (const f of process.argv.slice(3)) {
    const text = readFileSync(f, 'utf8').replaceAll('{team}', String(info.project_id));
    let last;
    for (let i = 0; i < runs; i++) { try { last = await sql(text); console.log(f, 'ms', last.ms.toFixed(0)); } catch (e) { console.log(f, 'ERR', e.message.slice(0, 400)); break; } }
    if (last) console.log(JSON.stringify(last.rows).slice(0, 400));
  }
}
await app.close(); await services.close(); process.exit(0);
