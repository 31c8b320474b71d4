// A set of SELECTs (UNION ALL, INTERSECT, EXCEPT ...); UNION BY NAME as a UNION in the first side's column order.
import { union } from '../../ast/build.js';
import type { Select, SetOperator, Union } from '../../ast/nodes.js';
import { HogQLNotSupportedError, HogQLQueryError } from '../errors.js';
import { isStarField } from './fields.js';
import { child, children, type HogQLNode } from './hogql-ast.js';
import { columnName, withValues } from './print-hogql.js';
import { withCtes, type CteMap, type Translator } from './scope.js';

const SET_OPERATORS: ReadonlySet<string> = new Set(['UNION ALL', 'UNION DISTINCT', 'INTERSECT', 'INTERSECT DISTINCT', 'EXCEPT', 'EXCEPT DISTINCT']);

export function setQuery(t: Translator, node: HogQLNode, ctes: CteMap): Union {
  const first = child(node, 'initial_select_query');
  if (!first) throw new HogQLQueryError('A set of queries needs a first query');
  const selects: (Select | Union)[] = [t.query(first, ctes)];
  // The first SELECT's WITH names CTEs the later parts of the set read too, as in PostHog (test_ctes_with_union_all).
  if (first.node === 'SelectQuery') ctes = withCtes(first, ctes);
  const operators: SetOperator[] = [];
  for (const next of children(node, 'subsequent_select_queries')) {
    let operator = String(next['set_operator'] ?? '');
    let query = child(next, 'select_query')!;
    // ClickHouse has no BY NAME: the later side's columns are put in the first side's order instead.
    const byName = /^UNION(?: (ALL|DISTINCT))? BY NAME$/.exec(operator);
    if (byName) {
      operator = `UNION ${byName[1] ?? 'DISTINCT'}`;
      query = inOrderOf(t, query, t.columnsOf(first));
    }
    if (!SET_OPERATORS.has(operator)) throw new HogQLNotSupportedError(`Set operator ${operator}`);
    operators.push(operator as SetOperator);
    selects.push(t.query(query, ctes));
  }
  return Object.freeze({ ...union(), selects: Object.freeze(selects), operators: Object.freeze(operators) });
}

/** A UNION BY NAME side, its select items reordered to `names` (the same names, each once, on both sides). */
function inOrderOf(t: Translator, query: HogQLNode, names: readonly string[]): HogQLNode {
  if (query.node !== 'SelectQuery') throw new HogQLNotSupportedError('UNION BY NAME of a nested set');
  const items = children(query, 'select');
  if (items.some(isStarField)) throw new HogQLNotSupportedError('UNION BY NAME of a SELECT *');
  const own = items.map((item) => columnName(withValues(item, t.context.values)));
  const same = new Set(names).size === names.length && new Set(own).size === own.length && own.length === names.length && names.every((n) => own.includes(n));
  if (!same) throw new HogQLQueryError(`UNION BY NAME needs the same column names on both sides, each once: (${names.join(', ')}) and (${own.join(', ')})`);
  return { ...query, select: names.map((name) => items[own.indexOf(name)]!) };
}
