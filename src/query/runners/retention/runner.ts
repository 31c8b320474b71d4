// Retention: one statement (sql.ts) counting actors per cohort and offset, shaped into PostHog's
// rows (results.ts).
import { ValidationError } from '../../../errors.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import type { RetentionQuery } from '../../nodes/schema.js';
import { earliestEvent } from '../event-range.js';
import type { RunOutput } from '../kind.js';
import { retentionRange, type RetentionRange } from './range.js';
import { retentionRows, type RetentionCellRow, type RetentionRow } from './results.js';
import { retentionActors, retentionCells } from './sql.js';

export interface RetentionResult extends RunOutput {
  results: RetentionRow[];
  resolved_date_range: { date_from: string; date_to: string };
}

/** An entity naming an action the project does not have (or deleted) is refused, not read as "nothing". */
export function checkActions(query: RetentionQuery, context: QueryContext): void {
  for (const name of ['targetEntity', 'returningEntity'] as const) {
    const entity = query.retentionFilter[name];
    if (entity.kind === 'ActionsNode' && !context.actions.has(entity.id)) {
      throw new ValidationError(`Action ${entity.id} does not exist in this project.`, `retentionFilter.${name}.id`, 'not_found');
    }
  }
}

export async function rangeOf(query: RetentionQuery, context: QueryContext, run: QueryRun): Promise<RetentionRange> {
  const earliest = query.dateRange.date_from?.trim() === 'all' ? await earliestEvent(run) : null;
  return retentionRange(query, context, earliest);
}

export async function runRetention(query: RetentionQuery, context: QueryContext, run: QueryRun): Promise<RetentionResult> {
  checkActions(query, context);
  const range = await rangeOf(query, context, run);
  const cells = range.cohortStarts.length === 0 ? [] : await run.rows<RetentionCellRow>(retentionCells(retentionActors(query, context, range), query));
  return {
    results: retentionRows(query, range, cells),
    resolved_date_range: { date_from: range.dateFrom.toISO()!, date_to: range.dateTo.toISO()! },
  };
}
