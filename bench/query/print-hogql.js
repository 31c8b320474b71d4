// Prints the SQL Hoglet runs for HogQL statements (translated, team-guarded, values inlined as
// typed constants), for statements.js; run it in a checkout of another commit to get that
// commit's SQL for the same HogQL. `@FROM@` in the HogQL is replaced by $FROM.
//   FROM='2026-11-22 00:00:00' node bench/query/print-hogql.js <team> <cases.json> > statements.json
import fs from 'node:fs';
import { sharedHogQLParser, closeSharedHogQLParser } from '../../dist/query/hogql/parse/index.js';
import { HogQLTranslator } from '../../dist/query/hogql/translate/translate.js';
import { scopeToProject } from '../../dist/query/passes/scope-to-project.js';
import { printQuery } from '../../dist/query/printer/print.js';

const [team, file] = process.argv.slice(2);
const json = fs.readFileSync(file, 'utf8').replaceAll('@FROM@', process.env.FROM ?? '2026-11-22 00:00:00');
const out = {};
for (const [name, text] of Object.entries(JSON.parse(json))) {
  const root = await sharedHogQLParser().parse('select', text, 1);
  const { query } = new HogQLTranslator({ timezone: 'UTC', values: {} }).statement(root);
  const { sql, params } = printQuery(scopeToProject(query, Number(team)), 'hoglet');
  out[name] = sql.replace(/\{(p\d+):([^}]+)\}/g, (_, key, type) => {
    const value = params[key];
    if (value === null) return `CAST(NULL AS ${type})`;
    return `CAST(${typeof value === 'string' ? `'${value.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'` : value} AS ${type})`;
  });
}
console.log(JSON.stringify(out, null, 1));
await closeSharedHogQLParser();
