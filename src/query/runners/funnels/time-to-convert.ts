// Time to convert (reference §4.7): for persons who reached funnelToStep, the seconds from
// funnelFromStep to funnelToStep of their best attempt, as a histogram of bin_count + 1 bins.
import { alias, binary, call, field, select, subquery } from '../../ast/build.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import type { FunnelsQuery } from '../../nodes/schema.js';
import { personQuery } from './person-query.js';
import type { FunnelRange } from './range.js';
import { num } from './sql.js';

export interface TimeToConvertResult {
  bins: [number, number][];
  average_conversion_time: number | null;
}

export async function funnelTimeToConvert(query: FunnelsQuery, context: QueryContext, run: QueryRun, window: FunnelRange): Promise<TimeToConvertResult> {
  const n = query.series.length;
  const fromStep = query.funnelsFilter.funnelFromStep ?? 0;
  const toStep = query.funnelsFilter.funnelToStep ?? n - 1;
  const { select: persons } = personQuery({ query, context, fromUtc: window.fromUtc, toUtc: window.toUtc });
  // times[k] is step k-1 -> k (1-based), so from..to (0-based) is times[from+2 .. to+1].
  const value = call('arraySum', call('arraySlice', field('times'), num(fromStep + 2), num(toStep - fromStep)));
  const rows = await run.rows<{ conversion_times: number[] }>(select({
    select: [alias(call('groupArray', value), 'conversion_times')],
    from: subquery(persons, 'funnel_persons'),
    where: binary('>=', field('reached'), num(toStep + 1)),
  }));
  return binTimes((rows[0]?.conversion_times ?? []).map(Number), query.funnelsFilter.binCount ?? null);
}

/** PostHog's bins: count clamp(binCount, 1, 90) or clamp(ceil(cbrt(#)), 1, 60); width ceil(span / count), 60 if 0. */
export function binTimes(values: number[], binCount: number | null): TimeToConvertResult {
  if (values.length === 0) return { bins: [], average_conversion_time: null };
  const count = binCount !== null ? Math.min(90, Math.max(1, binCount)) : Math.min(60, Math.max(1, Math.ceil(Math.cbrt(values.length))));
  const min = Math.floor(values.reduce((a, b) => Math.min(a, b), Infinity));
  const max = Math.ceil(values.reduce((a, b) => Math.max(a, b), -Infinity));
  const width = Math.ceil((max - min) / count) || 60;
  const bins: [number, number][] = [];
  for (let k = 0; k <= count; k++) bins.push([Math.round(min + k * width), 0]);
  for (const v of values) {
    const index = Math.min(count, Math.floor((v - min) / width));
    bins[index]![1] += 1;
  }
  const average = values.reduce((a, b) => a + b, 0) / values.length;
  return { bins, average_conversion_time: average };
}
