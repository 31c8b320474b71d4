// A filter keeps a row only when its condition is true, and AND/OR treat NULL as "unknown" (never
// true on its own), so in a filter position `ifNull(cond, false)` keeps exactly the rows `cond`
// keeps. The wrapper is not free: ClickHouse cannot use it to skip reading columns early, and a
// HogQL date filter under it measured 60% slower joined to persons. This pass drops it from WHERE
// and HAVING, through and/or only (under NOT, NULL and false differ), and nowhere else.
import { call } from '../ast/build.js';
import type { Expr, Query, Select } from '../ast/nodes.js';
import { AstTransformer } from './transformer.js';

export function dropFilterNullGuards<Q extends Query>(query: Q): Q {
  return new FilterNullGuardDropper().query(query) as Q;
}

const isFalse = (e: Expr) => e.kind === 'constant' && (e.value === false || e.value === 0);

const unguardedOf = new WeakMap<Expr, Expr>();

/** The condition as a filter reads it, without `ifNull(..., false)` wherever that cannot matter (once per shared subtree). */
function unguarded(condition: Expr): Expr {
  const hit = unguardedOf.get(condition);
  if (hit) return hit;
  const out = unguardedOnce(condition);
  unguardedOf.set(condition, out);
  return out;
}

function unguardedOnce(condition: Expr): Expr {
  if (condition.kind === 'and' || condition.kind === 'or') return Object.freeze({ ...condition, exprs: Object.freeze(condition.exprs.map(unguarded)) });
  if (condition.kind !== 'call' || condition.distinct || condition.params) return condition;
  if ((condition.name === 'and' || condition.name === 'or') && condition.args.length > 0) return call(condition.name, ...condition.args.map(unguarded));
  if (condition.name === 'ifNull' && condition.args.length === 2 && isFalse(condition.args[1]!)) return unguarded(condition.args[0]!);
  return condition;
}

class FilterNullGuardDropper extends AstTransformer {
  override select(s: Select): Select {
    const walked = super.select(s);
    if (walked.where === undefined && walked.having === undefined) return walked;
    return Object.freeze({
      ...walked,
      ...(walked.where !== undefined && { where: unguarded(walked.where) }),
      ...(walked.having !== undefined && { having: unguarded(walked.having) }),
    });
  }
}
