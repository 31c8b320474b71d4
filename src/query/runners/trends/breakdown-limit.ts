// PostHog's breakdown limit, in SQL so high-cardinality properties never reach JavaScript: values
// are ranked (real values by their total over the range, then the null bucket), and everything
// past the limit is summed into the Other bucket per time bucket.
import { alias, asc, binary, call, constant, desc, eq, field, over, select, subquery } from '../../ast/build.js';
import type { Select } from '../../ast/nodes.js';
import { NULL_BREAKDOWN, OTHER_BREAKDOWN } from '../../filters/breakdown-labels.js';

/** `perSeries`: the rows carry a series_index (a shared scan) and each series is ranked on its own. */
export function limitBreakdownValues(series: Select, limit: number, perSeries = false): Select {
  const index = perSeries ? [field('series_index')] : [];
  const totals = select({
    select: [...index, field('bucket'), field('breakdown_value'), field('value'), alias(over(call('sum', field('value')), [...index, field('breakdown_value')]), 'value_total')],
    from: subquery(series, 'series'),
  });
  const ranked = select({
    select: [
      ...index,
      field('bucket'),
      alias(field('breakdown_value'), 'breakdown_value_raw'),
      alias(field('value'), 'series_value'),
      alias(over(call('dense_rank'), index, [
        asc(eq(field('breakdown_value'), constant(NULL_BREAKDOWN))),
        desc(field('value_total')),
        asc(field('breakdown_value')),
      ]), 'value_rank'),
    ],
    from: subquery(totals, 'totals'),
  });
  return select({
    select: [
      ...index,
      field('bucket'),
      alias(call('if', binary('<=', field('value_rank'), constant(limit)), field('breakdown_value_raw'), constant(OTHER_BREAKDOWN)), 'breakdown_value'),
      alias(call('sum', field('series_value')), 'value'),
    ],
    from: subquery(ranked, 'ranked'),
    groupBy: [...index, field('bucket'), field('breakdown_value')],
  });
}
