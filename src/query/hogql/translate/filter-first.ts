// The engine does not always apply a WHERE condition on the FROM table before the joins (the lazy
// joins to overrides and persons, or the user's own), so every event of the project can be joined
// before most are thrown away: measured on 10M events with 45,000 merge overrides, 71 ms against
// 44 ms. Conditions that read only the FROM table move into a subquery around it, which the engine
// always filters first; the rows are the same, since such a condition holds or fails for an event
// whatever it is joined to (and every row comes from an event: no RIGHT or FULL join).
import { and, select, STAR, subquery } from '../../ast/build.js';
import type { Select } from '../../ast/nodes.js';
import { conjunctsOf, readsOnly, rowsComeFromTheFromTable } from '../../ast/reads.js';

/** The SELECT with the conditions on its FROM table applied to that table before its joins. */
export function filterBeforeJoins(query: Select): Select {
  const from = query.from;
  if (!from || from.kind !== 'table' || !query.joins || query.joins.length === 0 || !rowsComeFromTheFromTable(query.joins)) return query;
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
