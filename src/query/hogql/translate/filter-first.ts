// The engine does not always apply a WHERE condition on the FROM table before the joins (the lazy
// joins to overrides and persons, or the user's own), so every event of the project can be joined
// before most are thrown away: measured on 10M events with 45,000 merge overrides, 71 ms against
// 44 ms. Conditions that read only the FROM table move into a subquery around it, which the engine
// always filters first; the rows are the same, since such a condition holds or fails for an event
// whatever it is joined to.
import { and, select, STAR, subquery } from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';

const conjunctsOf = (where: Expr | undefined): Expr[] => (where === undefined ? [] : where.kind === 'and' ? where.exprs.flatMap(conjunctsOf) : [where]);

/** Every field names `alias`, at least one does, and nothing is a subquery (which may read other tables). */
function readsOnly(expr: Expr, alias: string): boolean {
  let fields = 0;
  const stack: unknown[] = [expr];
  while (stack.length > 0) {
    const item = stack.pop();
    if (Array.isArray(item)) {
      stack.push(...item);
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    const node = item as { kind?: unknown; table?: unknown };
    if (node.kind === 'select' || node.kind === 'union' || node.kind === 'subquery' || node.kind === 'lambda') return false;
    if (node.kind === 'field') {
      if (node.table !== alias) return false;
      fields++;
    }
    stack.push(...Object.values(item));
  }
  return fields > 0;
}

/** The SELECT with the conditions on its FROM table applied to that table before its joins. */
export function filterBeforeJoins(query: Select): Select {
  const from = query.from;
  if (!from || from.kind !== 'table' || !query.joins || query.joins.length === 0) return query;
  const conditions = conjunctsOf(query.where);
  const first = conditions.filter((c) => readsOnly(c, from.alias));
  if (first.length === 0) return query;
  const rest = conditions.filter((c) => !first.includes(c));
  const { where: _where, ...others } = query;
  return {
    ...others,
    from: subquery(select({ select: [STAR], from, where: and(...first) }), from.alias),
    ...(rest.length > 0 ? { where: and(...rest) } : {}),
  };
}
