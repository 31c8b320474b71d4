// The tables a SELECT reads, for HogQLAutocomplete: a table by name, a CTE or a subquery (the fields
// it selects from its own FROM table, under their names there), and the aliased tables of its
// FROM and JOINs. Read from the parser's tree alone, as PostHog's autocomplete.py's get_table does.
import { chainOf, child, isNode, type HogQLNode } from '../hogql/translate/hogql-ast.js';
import { AUTOCOMPLETE_TABLES, type FieldSpec, type TableSpec } from './schema.js';

export type Ctes = ReadonlyMap<string, HogQLNode>;

export function ctesOf(select: HogQLNode | null): Ctes {
  const ctes = new Map<string, HogQLNode>();
  let query = select;
  // A set of SELECTs: its first SELECT's CTEs.
  while (query && query.node === 'SelectSetQuery') query = child(query, 'initial_select_query') ?? null;
  const value = query?.['ctes'];
  const list = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
  for (const cte of list) if (isNode(cte) && typeof cte['name'] === 'string') ctes.set(cte['name'], cte);
  return ctes;
}

/** A subquery's table: its FROM table's fields that the SELECT names, under their names there. */
function selectedFields(table: TableSpec, select: HogQLNode): TableSpec {
  const fields: Record<string, FieldSpec> = {};
  const items = Array.isArray(select['select']) ? select['select'] : [];
  const own = (chain: (string | number)[]): FieldSpec | undefined => {
    const name = String(chain.at(-1));
    return chain.length <= 2 && Object.hasOwn(table.fields, name) ? table.fields[name] : undefined;
  };
  for (const entry of items) {
    if (!isNode(entry)) continue;
    if (entry.node === 'Field') {
      const chain = chainOf(entry);
      const found = own(chain);
      if (found) fields[String(chain.at(-1))] = found;
    } else if (entry.node === 'Alias' && typeof entry['alias'] === 'string') {
      const expr = child(entry, 'expr');
      if (expr?.node === 'Field') {
        const found = own(chainOf(expr));
        if (found) fields[entry['alias']] = found;
      } else if (expr?.node === 'Constant') {
        const value = expr['value'];
        const type = typeof value === 'string' ? 'String' : typeof value === 'boolean' ? 'Boolean'
          : typeof value === 'number' ? (Number.isInteger(value) ? 'Int64' : 'Float64') : 'unknown';
        fields[entry['alias']] = { kind: 'column', type };
      } else {
        fields[entry['alias']] = { kind: 'column', type: 'unknown' };
      }
    }
  }
  // Keeps the base table's name, so its JSON columns still complete from its property definitions.
  return { name: table.name, fields };
}

/** The table a FROM or JOIN item reads: a table by name, a CTE, or a subquery (its selected fields). */
export function tableOf(join: HogQLNode | undefined, ctes: Ctes, depth = 0): TableSpec | null {
  if (!join || depth > 32) return null;
  const table = child(join, 'table');
  if (table?.node === 'Field') {
    const chain = chainOf(table);
    const cte = ctes.get(String(chain[0]));
    const expr = cte ? child(cte, 'expr') : undefined;
    if (cte && cte['cte_type'] === 'subquery' && expr?.node === 'SelectQuery') {
      const base = tableOf(child(expr, 'select_from'), ctes, depth + 1);
      return base ? selectedFields(base, expr) : null;
    }
    return AUTOCOMPLETE_TABLES.get(chain.join('.')) ?? null;
  }
  if (table?.node === 'SelectQuery') {
    const base = tableOf(child(table, 'select_from'), ctes, depth + 1);
    return base ? selectedFields(base, table) : null;
  }
  return null;
}

/** The aliased tables of a SELECT's FROM and JOINs, by alias, in the text's order. */
export function aliasedTables(select: HogQLNode, ctes: Ctes): Map<string, TableSpec> {
  const tables = new Map<string, TableSpec>();
  for (let join = child(select, 'select_from'); join; join = child(join, 'next_join')) {
    if (typeof join['alias'] !== 'string') continue;
    const table = tableOf(join, ctes);
    if (table) tables.set(join['alias'], table);
  }
  return tables;
}
