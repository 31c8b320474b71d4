// The tables a HogQL statement names, as PostHog's metadata lists them (table_names): every FROM
// and JOIN table at any depth (subqueries in WHERE too), dotted, minus the CTEs it defines.
import { chainOf, isNode, type HogQLNode } from '../hogql/translate/hogql-ast.js';

export function tableNames(root: HogQLNode): string[] {
  const names = new Set<string>();
  const ctes = new Set<string>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      for (let i = item.length - 1; i >= 0; i -= 1) stack.push(item[i]);
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    if (isNode(item)) {
      if (item.node === 'CTE' && typeof item['name'] === 'string') ctes.add(item['name']);
      const table = item['table'];
      if (item.node === 'JoinExpr' && isNode(table) && table.node === 'Field') names.add(chainOf(table).join('.'));
    }
    // Children in document order (the stack pops the last pushed first).
    const values = Object.values(item);
    for (let i = values.length - 1; i >= 0; i -= 1) stack.push(values[i]);
  }
  return [...names].filter((name) => !ctes.has(name));
}

/** PostHog's is_valid_view: every SELECT of the statement gives each column an alias. */
export function isValidView(root: HogQLNode): boolean {
  const selects = root.node === 'SelectSetQuery'
    ? [root['initial_select_query'], ...((root['subsequent_select_queries'] as unknown[] | null) ?? []).map((s) => (isNode(s) ? s['select_query'] : null))]
    : [root];
  return selects.every((query) => isNode(query) && (query.node === 'SelectSetQuery'
    ? isValidView(query)
    : Array.isArray(query['select']) && (query['select'] as unknown[]).every((item) => isNode(item) && item.node === 'Alias')));
}
