// Per-person rows -> per-step counts and conversion times, per breakdown value. Breakdown values
// are ranked by how many persons reached the last step, then the step before, ... (PostHog's
// order); values past the limit are merged into the Other bucket in SQL, so a high-cardinality
// property never reaches JavaScript and Other's median is a real median of its persons.
import { alias, and, asc, binary, call, constant, desc, field, over, parametricCall, select, subquery } from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';
import { OTHER_BREAKDOWN } from '../../filters/breakdown-labels.js';
import { at, num } from './sql.js';

export { OTHER_BREAKDOWN };

export interface StepAggregateRow {
  breakdown_value: string;
  /** c1..cn: persons that reached step k; a2..an / m2..mn: average / median seconds into step k. */
  [column: string]: string | number | null;
}

function stepColumns(n: number): Expr[] {
  const reached = (k: number) => binary('>=', field('reached'), num(k));
  const time = (k: number) => at(field('times'), num(k));
  const columns: Expr[] = [];
  for (let k = 1; k <= n; k++) columns.push(alias(call('countIf', reached(k)), `c${k}`));
  for (let k = 2; k <= n; k++) {
    // Zero-second conversions are left out of the averages (PostHog's UDF rule). The median is
    // exact (interpolated like PostHog's median(), which samples past 8192 values, so a refresh
    // could move it there).
    const counted = and(reached(k), binary('>', time(k), constant(0, 'Float64')));
    columns.push(alias(call('avgIf', time(k), counted), `a${k}`));
    columns.push(alias(parametricCall('quantileExactInclusiveIf', [constant(0.5, 'Float64')], [time(k), counted]), `m${k}`));
  }
  return columns;
}

export function stepAggregate(persons: Select, n: number, breakdownLimit: number | null): Select {
  const counted = binary('>', field('reached'), num(0));
  if (breakdownLimit === null) {
    return select({
      select: [alias(constant(''), 'breakdown_value'), ...stepColumns(n)],
      from: subquery(persons, 'funnel_persons'),
      where: counted,
    });
  }
  const valueTotals: Expr[] = [];
  for (let k = n; k >= 1; k--) {
    valueTotals.push(alias(over(call('countIf', binary('>=', field('reached'), num(k))), [field('breakdown_value')]), `fn_r${k}`));
  }
  const withTotals = select({
    select: [field('breakdown_value'), field('reached'), field('times'), ...valueTotals],
    from: subquery(persons, 'funnel_persons'),
    where: counted,
  });
  const ranked = select({
    select: [
      alias(field('breakdown_value'), 'fn_value'), field('reached'), field('times'),
      alias(over(call('dense_rank'), [], [
        ...Array.from({ length: n }, (_, i) => desc(field(`fn_r${n - i}`))),
        asc(field('breakdown_value')),
      ]), 'fn_rank'),
    ],
    from: subquery(withTotals, 'funnel_totals'),
  });
  return select({
    select: [
      alias(call('if', binary('<=', field('fn_rank'), num(breakdownLimit)), field('fn_value'), constant(OTHER_BREAKDOWN)), 'breakdown_value'),
      ...stepColumns(n),
    ],
    from: subquery(ranked, 'funnel_ranked'),
    groupBy: [field('breakdown_value')],
  });
}

/** The breakdown values in the top `limit` (for the actors of the Other bucket). */
export function topValues(persons: Select, n: number, limit: number): Select {
  const totals: Expr[] = [];
  for (let k = n; k >= 1; k--) totals.push(alias(call('countIf', binary('>=', field('reached'), num(k))), `fn_r${k}`));
  return select({
    select: [field('breakdown_value'), ...totals],
    from: subquery(persons, 'funnel_persons'),
    where: binary('>', field('reached'), num(0)),
    groupBy: [field('breakdown_value')],
    orderBy: [...Array.from({ length: n }, (_, i) => desc(field(`fn_r${n - i}`))), asc(field('breakdown_value'))],
    limit,
  });
}
