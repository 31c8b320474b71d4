// What a FunnelsQuery asks for, reduced to what the SQL needs: one condition per step, the
// exclusions with the steps they guard, the conversion window, and the event names that let the
// events scan skip everything else.
import { and, call, constant, eq } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import { actionEventNames, actionExpr } from '../../filters/actions.js';
import type { EventSource } from '../../filters/event-source.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import type { FunnelsQuery, FunnelWindowUnit, SeriesNode } from '../../nodes/schema.js';
import { ValidationError } from '../../../errors.js';

/** Seconds per window unit, as PostHog's UDF counts them (a month is 31 days). */
export const WINDOW_UNIT_SECONDS: Readonly<Record<FunnelWindowUnit, number>> = Object.freeze({
  second: 1, minute: 60, hour: 3600, day: 86_400, week: 604_800, month: 31 * 86_400,
});

export interface FunnelSpec {
  readonly stepCount: number;
  readonly windowMicros: number;
  /** Per step (0-based): the condition an event must meet to fill it. */
  readonly stepConditions: readonly Expr[];
  /**
   * Per exclusion: its condition and the 1-based step numbers it guards. An exclusion event with
   * step s marks the attempt waiting at step s-1 (PostHog: exclusion from a to b flags steps a+2..b+1).
   */
  readonly exclusions: readonly { readonly condition: Expr; readonly steps: readonly number[] }[];
  /** Event names the scan can be limited to; null when a step or exclusion matches any event. */
  readonly eventNames: readonly string[] | null;
  /** Every step is its own named event, so an event fills at most one step (a cheaper walk). */
  readonly oneStepPerEvent: boolean;
}

export function windowMicros(query: FunnelsQuery): number {
  const { funnelWindowInterval, funnelWindowIntervalUnit } = query.funnelsFilter;
  return funnelWindowInterval * WINDOW_UNIT_SECONDS[funnelWindowIntervalUnit] * 1_000_000;
}

export function funnelSpec(query: FunnelsQuery, context: QueryContext, source: EventSource): FunnelSpec {
  const { timezone } = context.project;
  const stepCount = query.series.length;
  const names: (string[] | null)[] = [];
  const condition = (node: SeriesNode): Expr => {
    if (node.kind === 'ActionsNode') {
      const action = context.actions.get(node.id);
      names.push(actionEventNames(action));
      return and(actionExpr(action, source, timezone), propertyGroupExpr(node.properties, source, timezone));
    }
    names.push(node.event === null ? null : [node.event]);
    return and(node.event === null ? undefined : eq(source.event, constant(node.event)), propertyGroupExpr(node.properties, source, timezone)) ?? constant(true);
  };
  if (query.series.some((node) => node.optionalInFunnel)) {
    throw new ValidationError('Optional funnel steps are not supported yet.', 'series');
  }
  if (query.breakdownFilter && query.funnelsFilter.breakdownAttributionType === 'step') {
    throw new ValidationError('Breakdown attribution "step" is not supported yet; use first_touch, last_touch or all_events.', 'funnelsFilter.breakdownAttributionType');
  }
  const stepConditions = query.series.map(condition);
  const unordered = query.funnelsFilter.funnelOrderType === 'unordered';
  const exclusions = query.funnelsFilter.exclusions.map((exclusion) => {
    if (unordered && (exclusion.funnelFromStep !== 0 || exclusion.funnelToStep !== stepCount - 1)) {
      throw new ValidationError('Unordered funnels only support exclusions over the whole funnel (from the first to the last step).', 'funnelsFilter.exclusions');
    }
    const node: SeriesNode = exclusion.kind === 'ActionsNode'
      ? { kind: 'ActionsNode', id: exclusion.id ?? 0, math: 'total', properties: exclusion.properties }
      : { kind: 'EventsNode', event: exclusion.event ?? null, math: 'total', properties: exclusion.properties };
    const steps: number[] = [];
    for (let zeroBased = exclusion.funnelFromStep + 1; zeroBased <= exclusion.funnelToStep; zeroBased++) steps.push(zeroBased + 1);
    return { condition: condition(node), steps };
  });
  const eventNames = names.some((n) => n === null) ? null : [...new Set(names.flat() as string[])].sort();
  const stepEvents = query.series.map((node) => (node.kind === 'EventsNode' ? node.event : null));
  const oneStepPerEvent = stepEvents.every((event) => event !== null) && new Set(stepEvents).size === stepEvents.length;
  return { stepCount, windowMicros: windowMicros(query), stepConditions, exclusions, eventNames, oneStepPerEvent };
}

/** Bitmask of the steps an event matches: bit s-1 for step s. */
export function stepMask(conditions: readonly Expr[]): Expr {
  if (conditions.length === 0) return call('toUInt64', constant(0));
  const terms = conditions.map((c, i) => call('if', c, call('toUInt64', constant(2 ** i, 'UInt64')), call('toUInt64', constant(0))));
  return call('toUInt64', terms.reduce((a, b) => call('plus', a, b)));
}

/** Bitmask of the step numbers an exclusion event guards. */
export function exclusionMask(spec: FunnelSpec): Expr {
  const bits = spec.exclusions.map((e) => ({ condition: e.condition, mask: e.steps.reduce((m, s) => m + 2 ** (s - 1), 0) }));
  if (bits.length === 0) return call('toUInt64', constant(0));
  return call('toUInt64', bits
    .map((b) => call('if', b.condition, call('toUInt64', constant(b.mask, 'UInt64')), call('toUInt64', constant(0))))
    .reduce((a, b) => call('bitOr', a, b)));
}
