// A SELECT that reads its events' person (or group) only to filter them, as in
// `where person.properties.$browser = 'Chrome'`, pays for joining every event to every person. The
// same rows come from keeping the events whose person is IN the persons that pass the filter, and
// that costs a set lookup instead of a join (measured on 10M events: 230 ms -> 160 ms). The rewrite
// applies only when nothing else reads the join and every condition that does rejects an event
// without a person: the condition reads only the join's property extracts (NULL when no person
// matched) through functions that give NULL for NULL, compared under `ifNull(..., 0)` at most.
import { and, binary, select } from '../../ast/build.js';
import type { Expr, Join, Select } from '../../ast/nodes.js';
import { conjunctsOf, fieldsOf, readsOnly, rowsComeFromTheFromTable } from '../../ast/reads.js';
import { walkObjects } from '../../tree/walk.js';

/** The key column of a latest-persons or latest-groups join (catalog/latest.ts). */
const LOOKUP_KEYS: ReadonlySet<string> = new Set(['person_key', 'group_key']);
/** Property extracts computed inside those joins (EventSource names them x0, x1...): Nullable by construction. */
const EXTRACT_COLUMN = /^x\d+$/;
/** Functions whose result is NULL when an argument is NULL (ClickHouse's default NULL handling). */
const NULL_STRICT: ReadonlySet<string> = new Set([
  'equals', 'less', 'greater', 'lessOrEquals', 'greaterOrEquals', 'like', 'ilike', 'match', 'lower', 'upper',
  'toString', 'toInt64OrNull', 'toFloat64OrNull', 'toFloat', 'toInt', 'trim', 'length', 'substring', 'startsWith',
  'endsWith', 'position', 'positionCaseInsensitive', 'plus', 'minus', 'multiply', 'divide', 'concat', 'replaceAll',
  'replaceRegexpAll', 'extract', 'JSONExtractString', 'JSONExtractRaw',
]);
const STRICT_OPERATORS: ReadonlySet<string> = new Set(['=', '<', '>', '<=', '>=', '+', '-', '*', '/', 'LIKE', 'ILIKE']);

interface Lookup {
  readonly join: Join;
  readonly alias: string;
  /** The events' side of the ON: the merged person id, or `$group_N`. */
  readonly key: Expr;
}

function lookupOf(join: Join): Lookup | undefined {
  if (join.type !== 'LEFT' || join.from.kind !== 'subquery' || join.on?.kind !== 'binary' || join.on.op !== '=') return undefined;
  const { left, right } = join.on;
  if (left.kind !== 'field' || left.table !== join.from.alias || !LOOKUP_KEYS.has(left.name)) return undefined;
  return { join, alias: join.from.alias, key: right };
}

/** NULL whenever the join's extracts are NULL (no person matched). */
function nullStrict(expr: Expr, alias: string): boolean {
  if (expr.kind === 'field') return expr.table === alias && EXTRACT_COLUMN.test(expr.name);
  if (expr.kind === 'call') return NULL_STRICT.has(expr.name) && !expr.distinct && expr.args.some((a) => nullStrict(a, alias));
  if (expr.kind === 'binary') return STRICT_OPERATORS.has(expr.op) && (nullStrict(expr.left, alias) || nullStrict(expr.right, alias));
  return false;
}

const isFalse = (expr: Expr) => expr.kind === 'constant' && (expr.value === 0 || expr.value === false);

/**
 * False or NULL when the join's extracts are NULL: NULL-strict, or `ifNull` of that with false, an
 * AND with such a part, an OR of such parts, or an `if` on constants alone between two of them.
 */
function falseWhenUnmatched(condition: Expr, alias: string): boolean {
  if (condition.kind === 'and') return condition.exprs.some((e) => falseWhenUnmatched(e, alias));
  if (condition.kind === 'or') return condition.exprs.every((e) => falseWhenUnmatched(e, alias));
  if (condition.kind === 'call' && condition.name === 'ifNull' && condition.args.length === 2 && isFalse(condition.args[1]!)) {
    return falseWhenUnmatched(condition.args[0]!, alias);
  }
  if (condition.kind === 'call' && condition.name === 'if' && condition.args.length === 3) {
    const [test, then, otherwise] = condition.args as [Expr, Expr, Expr];
    return readsNothing(test) && falseWhenUnmatched(then, alias) && falseWhenUnmatched(otherwise, alias);
  }
  return nullStrict(condition, alias);
}

/** Only constants: the same for every row. */
const readsNothing = (expr: Expr) => walkObjects(expr, (node) => (['field', 'select', 'union', 'subquery', 'lambda', 'star'].includes(node.kind as string) ? 'stop' : 'descend'));

/** A WHERE condition that reads only the join's extracts and is false (or NULL) for an event without a person. */
function rejectsUnmatched(condition: Expr, alias: string): boolean {
  const fields = fieldsOf(condition, alias);
  if (fields.length === 0) return false;
  if (!fields.every((f) => EXTRACT_COLUMN.test(f.name))) return false;
  if (!readsOnly(condition, alias)) return false;
  return falseWhenUnmatched(condition, alias);
}

/** The SELECT with each lookup join that only filters turned into an IN condition. */
export function lookupsAsSemiJoins(query: Select): Select {
  if (!rowsComeFromTheFromTable(query.joins)) return query;
  let current = query;
  for (const lookup of (query.joins ?? []).map(lookupOf)) {
    if (!lookup) continue;
    const conditions = conjunctsOf(current.where);
    const filtering = conditions.filter((c) => rejectsUnmatched(c, lookup.alias));
    if (filtering.length === 0) continue;
    const kept = conditions.filter((c) => !filtering.includes(c));
    const joins = (current.joins ?? []).filter((j) => j !== lookup.join);
    const { where: _where, joins: _joins, ...rest } = current;
    // Anything else reading the join (columns, other conditions, ON clauses, grouping) keeps it.
    if (fieldsOf([rest, joins, kept], lookup.alias).length > 0) continue;
    const keyColumn = (lookup.join.on as Extract<Expr, { kind: 'binary' }>).left;
    const matching = select({ select: [keyColumn], from: lookup.join.from, where: and(...filtering) });
    current = { ...rest, ...(joins.length > 0 ? { joins } : {}), where: and(...kept, binary('IN', lookup.key, matching)) };
  }
  return current;
}
