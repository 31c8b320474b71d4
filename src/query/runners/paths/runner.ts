// Paths: the date range by day (start of date_from's day to the end of date_to's), one statement
// for the edges (sql.ts), PostHog's order, limit and pruning (results.ts).
import type { QueryContext } from '../../context.js';
import { resolveDateRange } from '../../dates/index.js';
import type { QueryRun } from '../../execute.js';
import type { PathsQuery } from '../../nodes/schema.js';
import { earliestEvent } from '../event-range.js';
import type { RunOutput } from '../kind.js';
import { pathResults, type PathEdge, type PathEdgeRow } from './results.js';
import { pathEdges } from './sql.js';

export interface PathsResult extends RunOutput {
  results: PathEdge[];
  resolved_date_range: { date_from: string; date_to: string };
}

export async function runPaths(query: PathsQuery, context: QueryContext, run: QueryRun): Promise<PathsResult> {
  const clock = { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now: context.now };
  const earliest = query.dateRange.date_from?.trim() === 'all' ? await earliestEvent(run) : null;
  const range = resolveDateRange(query.dateRange, clock, { interval: 'day', earliest });
  const rows = range.buckets.length === 0 ? [] : await run.rows<PathEdgeRow>(pathEdges(query, range, context));
  return {
    results: pathResults(query, rows),
    resolved_date_range: { date_from: range.dateFrom.toISO()!, date_to: range.dateTo.toISO()! },
  };
}
