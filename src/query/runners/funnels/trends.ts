// Funnel trends (reference §4.6): per entrance period (the interval bucket of a step-1 event), the
// persons who reached funnelFromStep and the share of them who went on to reach funnelToStep.
// A person counts at most once per period: their best attempt among those starting in it.
import { alias, binary, call, field, select, subquery } from '../../ast/build.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import type { FunnelsQuery } from '../../nodes/schema.js';
import { bucketTimestamp } from '../../buckets/bucket-start.js';
import { personQuery } from './person-query.js';
import type { FunnelRange } from './range.js';
import { num } from './sql.js';

export interface FunnelTrendItem {
  count: number;
  data: number[];
  days: string[];
  labels: string[];
  breakdown_value?: string[];
}

interface PeriodRow {
  breakdown_value: string;
  period: string | number;
  reached_from: string | number;
  reached_to: string | number;
}

export async function funnelTrends(query: FunnelsQuery, context: QueryContext, run: QueryRun, window: FunnelRange): Promise<FunnelTrendItem[]> {
  const { range } = window;
  const { timezone, weekStartDay } = context.project;
  const n = query.series.length;
  const fromStep = query.funnelsFilter.funnelFromStep ?? 0;
  const toStep = query.funnelsFilter.funnelToStep ?? n - 1;
  const { select: persons } = personQuery({
    query, context, fromUtc: window.fromUtc, toUtc: window.toUtc,
    period: (ts) => bucketTimestamp(ts, range.interval, timezone, weekStartDay),
  });
  const rows = await run.rows<PeriodRow>(select({
    select: [
      field('breakdown_value'), field('period'),
      alias(call('countIf', binary('>=', field('reached'), num(fromStep + 1))), 'reached_from'),
      alias(call('countIf', binary('>=', field('reached'), num(toStep + 1))), 'reached_to'),
    ],
    from: subquery(persons, 'funnel_periods'),
    groupBy: [field('breakdown_value'), field('period')],
  }));

  const bucketIndex = new Map(range.buckets.map((b, i) => [Math.round(b.toSeconds()), i]));
  const byValue = new Map<string, { from: number[]; to: number[]; total: number }>();
  for (const row of rows) {
    const i = bucketIndex.get(Number(row.period));
    if (i === undefined) continue;
    const entry = byValue.get(row.breakdown_value) ?? { from: range.buckets.map(() => 0), to: range.buckets.map(() => 0), total: 0 };
    entry.from[i] = Number(row.reached_from);
    entry.to[i] = Number(row.reached_to);
    entry.total += Number(row.reached_from);
    byValue.set(row.breakdown_value, entry);
  }
  const item = (entry: { from: number[]; to: number[] } | undefined): FunnelTrendItem => {
    const from = entry?.from ?? range.buckets.map(() => 0);
    const to = entry?.to ?? range.buckets.map(() => 0);
    return {
      count: range.buckets.length,
      data: from.map((f, i) => (f === 0 ? 0 : Math.round((to[i]! / f) * 100 * 100) / 100)),
      days: range.days,
      labels: range.labels,
    };
  };
  if (!query.breakdownFilter) return [item(byValue.get(''))];
  const limit = query.breakdownFilter.breakdown_limit ?? 10;
  return [...byValue.entries()]
    .sort(([va, a], [vb, b]) => b.total - a.total || (va < vb ? -1 : 1))
    .slice(0, limit)
    .map(([value, entry]) => ({ ...item(entry), breakdown_value: [value] }));
}
