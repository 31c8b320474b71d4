// Paths: the date range by day (start of date_from's day to the end of date_to's), one statement
// for the edges (sql.ts), PostHog's order, limit and pruning (results.ts).
import type { QueryContext } from '../../context.js';
import type { Select } from '../../ast/nodes.js';
import { resolveDateRange, type ResolvedDateRange } from '../../dates/index.js';
import type { QueryRun } from '../../execute.js';
import type { PathsQuery } from '../../nodes/schema.js';
import { earliestEvent } from '../event-range.js';
import { funnelRange } from '../funnels/range.js';
import type { RunOutput } from '../kind.js';
import { pathResults, type PathEdge, type PathEdgeRow } from './results.js';
import { pathEdges, sessionPaths } from './sql.js';

export interface PathsResult extends RunOutput {
  results: PathEdge[];
  resolved_date_range: { date_from: string; date_to: string };
}

/** The session paths a query reads (null when its range holds no day), for the edges and the actors. */
export async function pathsOf(query: PathsQuery, context: QueryContext, run: QueryRun): Promise<{ range: ResolvedDateRange; paths: Select | null }> {
  const clock = { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now: context.now };
  const earliest = query.dateRange.date_from?.trim() === 'all' ? await earliestEvent(run) : null;
  const range = resolveDateRange(query.dateRange, clock, { interval: 'day', earliest });
  if (range.buckets.length === 0) return { range, paths: null };
  const funnelWindow = query.funnelPathsFilter ? await funnelRange(query.funnelPathsFilter.funnelSource, context, run) : null;
  return { range, paths: sessionPaths(query, range, context, funnelWindow) };
}

export async function runPaths(query: PathsQuery, context: QueryContext, run: QueryRun): Promise<PathsResult> {
  const { range, paths } = await pathsOf(query, context, run);
  const rows = paths === null ? [] : await run.rows<PathEdgeRow>(pathEdges(paths, query));
  return {
    results: pathResults(query, rows),
    resolved_date_range: { date_from: range.dateFrom.toISO()!, date_to: range.dateTo.toISO()! },
  };
}
