// Numeric histogram breakdowns (breakdown_histogram_bin_count = k), as PostHog bins them: the
// minimum and maximum of the property over the series' events in the range, k bins of equal width
// between them, [lo, hi) each, the last one's upper bound raised by 0.01 so the maximum falls in
// it. An event's breakdown value is its bin as ClickHouse prints the pair ("[10,17.5]",
// "[32.5,40.01]"); events without a numeric value go to the null bucket. The bounds are computed
// with PostHog's arithmetic, in its order, so they print the same.
import { alias, and, array, binary, call, constant, eq, field, lambda, select, subquery } from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';
import { NULL_BREAKDOWN } from '../../filters/breakdown-labels.js';

/**
 * One row, one column: the bins as [[lo, hi], ...] (none when no event has a number). `events`
 * selects the series' matching events in the range from its own scan; `number` is the property as
 * Float64 (NULL when not a number) in that scan.
 */
export function histogramBins(events: (columns: Expr[]) => Select, number: Expr, binCount: number): Select {
  const stats = events([
    alias(call('ifNull', call('min', number), constant(0, 'Float64')), 'lo'),
    alias(call('ifNull', call('max', number), constant(0, 'Float64')), 'hi'),
    alias(call('count', number), 'numbers'),
  ]);
  const bins = constant(binCount, 'UInt64');
  const width = binary('/', binary('-', field('hi'), field('lo')), bins);
  const x = field('x');
  const next = binary('+', x, constant(1, 'UInt64'));
  const lower = binary('+', binary('*', width, x), field('lo'));
  const upper = binary('+', binary('+', binary('*', width, next), field('lo')), call('if', eq(next, bins), constant(0.01, 'Float64'), constant(0, 'Float64')));
  return select({
    select: [call('arrayMap', lambda(['x'], array(lower, upper)), call('range', call('if', eq(field('numbers'), constant(0, 'UInt64')), constant(0, 'UInt64'), bins)))],
    from: subquery(stats, 'histogram_stats'),
  });
}

/**
 * An event's bin label: the first bin with lo <= value < hi, or the null bucket when none holds it
 * (arrayFirst then gives []). The bins subquery appears once, so its scan runs once; the cost per
 * event grows with the number of bins, as in PostHog.
 */
export function histogramBreakdownValue(number: Expr, bins: Select): Expr {
  const bucket = field('b');
  const bin = call('arrayFirst', lambda(['b'], and(
    binary('<=', call('arrayElement', bucket, constant(1, 'UInt64')), number),
    binary('<', number, call('arrayElement', bucket, constant(2, 'UInt64'))),
  )), bins);
  return call('ifNull', call('nullIf', call('toString', bin), constant('[]')), constant(NULL_BREAKDOWN));
}
