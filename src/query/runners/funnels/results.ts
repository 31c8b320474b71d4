// Aggregated rows -> PostHog's funnel step objects, with the person-list URLs the persons endpoint
// answers (`/api/projects/:id/insights/funnel/persons/?funnel_step=..&query=..`).
import { breakdownCohorts, cohortLabel } from '../../cohorts/breakdown.js';
import type { QueryContext } from '../../context.js';
import type { FunnelsQuery, SeriesNode } from '../../nodes/schema.js';
import { OTHER_BREAKDOWN, type StepAggregateRow } from './aggregate.js';

export interface FunnelStep {
  action_id: string | number | null;
  name: string;
  custom_name: string | null;
  order: number;
  people: never[];
  count: number;
  type: 'events' | 'actions';
  average_conversion_time: number | null;
  median_conversion_time: number | null;
  converted_people_url: string;
  dropped_people_url: string | null;
  /** A list of the value; for a cohort breakdown the cohort's name and id. */
  breakdown?: string[] | string;
  breakdown_value?: string[] | number;
}

/** The label PostHog shows for the Other bucket; the URL carries the internal marker instead. */
export const OTHER_LABEL = 'Other';

export const finite = (value: unknown): number | null => {
  if (value === null || value === undefined) return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};

function stepIdentity(node: SeriesNode, context: QueryContext): Pick<FunnelStep, 'action_id' | 'name' | 'custom_name' | 'type'> {
  if (node.kind === 'ActionsNode') {
    return { action_id: node.id, name: context.actions.get(node.id)?.name ?? node.name ?? String(node.id), custom_name: node.custom_name ?? null, type: 'actions' };
  }
  const name = node.event ?? 'All events';
  return { action_id: node.event, name, custom_name: node.custom_name ?? null, type: 'events' };
}

export function personsUrl(query: FunnelsQuery, context: QueryContext, funnelStep: number, breakdownValue: string | null): string {
  const params = new URLSearchParams({ funnel_step: String(funnelStep) });
  if (breakdownValue !== null) params.set('funnel_step_breakdown', JSON.stringify([breakdownValue]));
  params.set('query', JSON.stringify(query));
  return `/api/projects/${context.project.id}/insights/funnel/persons/?${params.toString()}`;
}

export function buildSteps(query: FunnelsQuery, context: QueryContext, row: StepAggregateRow, breakdown: boolean): FunnelStep[] {
  const unordered = query.funnelsFilter.funnelOrderType === 'unordered';
  const value = row.breakdown_value;
  const shown = value === OTHER_BREAKDOWN ? OTHER_LABEL : value;
  const cohorts = breakdownCohorts(query.breakdownFilter);
  return query.series.map((node, i) => {
    const identity = unordered
      ? { action_id: null, name: `Completed ${i + 1} step${i === 0 ? '' : 's'}`, custom_name: null, type: 'events' as const }
      : stepIdentity(node, context);
    const step: FunnelStep = {
      ...identity,
      order: i,
      people: [],
      count: Number(row[`c${i + 1}`] ?? 0),
      average_conversion_time: i === 0 ? null : finite(row[`a${i + 1}`]),
      median_conversion_time: i === 0 ? null : finite(row[`m${i + 1}`]),
      converted_people_url: personsUrl(query, context, i + 1, breakdown ? value : null),
      dropped_people_url: i === 0 ? null : personsUrl(query, context, -(i + 1), breakdown ? value : null),
    };
    if (breakdown && cohorts) {
      // A cohort breakdown shows the cohort's name and id (0 for all users), not lists.
      step.breakdown = cohortLabel(value, context);
      step.breakdown_value = Number(value);
    } else if (breakdown) {
      step.breakdown = [shown];
      step.breakdown_value = [shown];
    }
    return step;
  });
}

/** PostHog's order of breakdown rows: last step count desc, then earlier steps; Other last. */
export function sortBreakdownRows(rows: StepAggregateRow[], n: number): StepAggregateRow[] {
  return [...rows].sort((a, b) => {
    const otherA = a.breakdown_value === OTHER_BREAKDOWN ? 1 : 0;
    const otherB = b.breakdown_value === OTHER_BREAKDOWN ? 1 : 0;
    if (otherA !== otherB) return otherA - otherB;
    for (let k = n; k >= 1; k--) {
      const d = Number(b[`c${k}`] ?? 0) - Number(a[`c${k}`] ?? 0);
      if (d !== 0) return d;
    }
    return String(a.breakdown_value) < String(b.breakdown_value) ? -1 : 1;
  });
}
