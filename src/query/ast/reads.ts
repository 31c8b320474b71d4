// What an expression of the query AST reads: the fields naming a table alias, and whether it
// reads that table alone (so it can move to where only that table is in scope).
import type { Expr, Join, JoinType } from './nodes.js';
import { walkObjects } from '../tree/walk.js';

/** The AND-ed conditions of a WHERE, nested ANDs flattened. */
export const conjunctsOf = (where: Expr | undefined): Expr[] => (where === undefined ? [] : where.kind === 'and' ? where.exprs.flatMap(conjunctsOf) : [where]);

/** Every field node under `value` that names `alias`. */
export function fieldsOf(value: unknown, alias: string): { name: string }[] {
  const found: { name: string }[] = [];
  walkObjects(value, (node) => {
    if (node.kind === 'field' && node.table === alias) found.push(node as unknown as { name: string });
    return 'descend';
  });
  return found;
}

/**
 * Whether the expression reads at least one field and only fields of `alias`, with no subquery
 * (which may read other tables), no lambda (whose arguments are unqualified names) and no alias
 * (which the rest of the SELECT may name: the expression must stay where it is).
 */
export function readsOnly(expr: Expr, alias: string): boolean {
  let fields = 0;
  const clean = walkObjects(expr, (node) => {
    if (node.kind === 'select' || node.kind === 'union' || node.kind === 'subquery' || node.kind === 'lambda' || node.kind === 'alias') return 'stop';
    if (node.kind === 'field') {
      if (node.table !== alias) return 'stop';
      fields += 1;
    }
    return 'descend';
  });
  return clean && fields > 0;
}

/**
 * Joins after which every output row comes from a row of the FROM table: a row the right side adds
 * alone (RIGHT, FULL) would carry default FROM-table columns, so a condition moved below such a
 * join, or rewritten, could keep or drop it differently.
 */
const FROM_DRIVEN: ReadonlySet<JoinType> = new Set(['LEFT', 'INNER', 'CROSS', 'LEFT ANY', 'INNER ANY', 'LEFT SEMI', 'LEFT ANTI', 'LEFT ASOF', 'ASOF']);

export const rowsComeFromTheFromTable = (joins: readonly Join[] | undefined): boolean => (joins ?? []).every((join) => FROM_DRIVEN.has(join.type));
