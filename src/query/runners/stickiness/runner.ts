// Stickiness: per series and period one statement (sql.ts), shaped into PostHog's items. A series
// naming an action the project does not have is left out of the results, as PostHog leaves it.
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import type { StickinessQuery } from '../../nodes/schema.js';
import type { RunOutput } from '../kind.js';
import { stickinessPeriods } from './periods.js';
import { stickinessItem, stickinessLabel, type HistogramRow, type StickinessItem } from './results.js';
import { intervalSlots, stickinessActors, stickinessHistogram } from './sql.js';

export interface StickinessResult extends RunOutput {
  results: StickinessItem[];
  resolved_date_range: { date_from: string; date_to: string };
}

export async function runStickiness(query: StickinessQuery, context: QueryContext, run: QueryRun): Promise<StickinessResult> {
  const periods = await stickinessPeriods(query, context, run);
  const jobs = query.series.flatMap((series, order) => periods.map((period) => ({ series, order, period })));
  // One statement at a time: the engine's query lane runs them in turn anyway, and a request of
  // 50 series compared would otherwise queue 100 at once.
  const items: (StickinessItem | null)[] = [];
  for (const { series, order, period } of jobs) {
    const action = series.kind === 'ActionsNode' ? context.actions.get(series.id) : undefined;
    if (series.kind === 'ActionsNode' && !action) {
      items.push(null);
      continue;
    }
    const slots = intervalSlots(query, period.range);
    const rows = slots === 0 ? [] : await run.rows<HistogramRow>(stickinessHistogram(stickinessActors(query, series, period.range, context)));
    items.push(stickinessItem(query, series, order, stickinessLabel(series, action?.name), slots, rows, period.compareLabel));
  }
  const current = periods[0]!.range;
  return {
    results: items.filter((item): item is StickinessItem => item !== null),
    resolved_date_range: { date_from: current.dateFrom.toISO()!, date_to: current.dateTo.toISO()! },
  };
}
