// Funnels: one statement per insight. The funnel's events are scanned once, each person's walk is
// an arrayFold (fold-ordered.ts / fold-unordered.ts), and the per-person rows are aggregated per
// step (steps viz), per entrance period (trends) or into a histogram (time_to_convert).
import type { FunnelsQuery } from '../../nodes/schema.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { funnelActors } from './actors.js';
import { OTHER_BREAKDOWN, stepAggregate, type StepAggregateRow } from './aggregate.js';
import { personQuery } from './person-query.js';
import { funnelRange } from './range.js';
import { buildSteps, sortBreakdownRows, type FunnelStep } from './results.js';
import { funnelTimeToConvert, type TimeToConvertResult } from './time-to-convert.js';
import { funnelTrends, type FunnelTrendItem } from './trends.js';

export { funnelActors };
export type { FunnelStep, FunnelTrendItem, TimeToConvertResult };

export interface FunnelsResult {
  [extra: string]: unknown;
  /** steps: a list of steps, or a list of step lists with a breakdown ([] when nobody entered); trends: items; time_to_convert: bins. */
  results: FunnelStep[] | FunnelStep[][] | FunnelTrendItem[] | TimeToConvertResult;
  isUdf: true;
  resolved_date_range: { date_from: string; date_to: string };
}

export const funnelsRunner = {
  async run(query: FunnelsQuery, context: QueryContext, run: QueryRun): Promise<FunnelsResult> {
    const window = await funnelRange(query, context, run);
    const resolved = { date_from: window.range.dateFrom.toISO()!, date_to: window.range.dateTo.toISO()! };
    const viz = query.funnelsFilter.funnelVizType;
    if (viz === 'trends') return { results: await funnelTrends(query, context, run, window), isUdf: true, resolved_date_range: resolved };
    if (viz === 'time_to_convert') return { results: await funnelTimeToConvert(query, context, run, window), isUdf: true, resolved_date_range: resolved };

    const { select: persons, spec } = personQuery({ query, context, fromUtc: window.fromUtc, toUtc: window.toUtc });
    const breakdown = query.breakdownFilter;
    const rows = await run.rows<StepAggregateRow>(stepAggregate(persons, spec.stepCount, breakdown ? breakdown.breakdown_limit ?? 10 : null));
    const entered = rows.filter((row) => Number(row.c1 ?? 0) > 0);
    // PostHog's UDF path answers [] when nobody entered the funnel.
    if (entered.length === 0) return { results: [], isUdf: true, resolved_date_range: resolved };
    if (!breakdown) return { results: buildSteps(query, context, entered[0]!, false), isUdf: true, resolved_date_range: resolved };
    const shown = breakdown.breakdown_hide_other_aggregation ? entered.filter((row) => row.breakdown_value !== OTHER_BREAKDOWN) : entered;
    const sorted = sortBreakdownRows(shown, spec.stepCount);
    return { results: sorted.map((row) => buildSteps(query, context, row, true)), isUdf: true, resolved_date_range: resolved };
  },
};
