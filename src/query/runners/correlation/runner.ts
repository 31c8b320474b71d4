// Funnel correlation: the funnel's entrants and their totals, the candidates of the asked type,
// PostHog's answer (results.ts).
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import type { FunnelCorrelationQuery } from '../../nodes/schema.js';
import { funnelRange } from '../funnels/range.js';
import type { RunOutput } from '../kind.js';
import { correlationResult, minimumSupport, type CandidateRow, type CorrelationResult } from './results.js';
import { entrantTotals, eventCandidates, eventPropertyCandidates, funnelEntrants, propertyCandidates, supported } from './sql.js';

export interface CorrelationOutput extends RunOutput {
  results: CorrelationResult;
}

const CANDIDATES = { events: eventCandidates, properties: propertyCandidates, event_with_properties: eventPropertyCandidates } as const;

export async function runCorrelation(query: FunnelCorrelationQuery, context: QueryContext, run: QueryRun): Promise<CorrelationOutput> {
  const window = await funnelRange(query.source, context, run);
  const [totals] = await run.rows<{ converted: number | string; dropped: number | string }>(entrantTotals(funnelEntrants(query, context, window)));
  const converted = Number(totals?.converted ?? 0);
  const dropped = Number(totals?.dropped ?? 0);
  const candidates = () => supported(CANDIDATES[query.funnelCorrelationType](query, context, window), minimumSupport(query, converted, dropped));
  const rows = converted === 0 || dropped === 0 ? [] : await run.rows<CandidateRow>(candidates());
  return {
    results: correlationResult(query, converted, dropped, rows),
    resolved_date_range: { date_from: window.range.dateFrom.toISO()!, date_to: window.range.dateTo.toISO()! },
  };
}
