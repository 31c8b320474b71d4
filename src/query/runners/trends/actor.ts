// Whom a series counts: persons, or, with math_group_type_index, the groups of that type (PostHog's
// is_groups_math: unique_group, and dau / weekly_active / monthly_active given an index).
import { actorOf, actorPresent } from '../../filters/actor.js';
import type { Expr } from '../../ast/nodes.js';
import type { EventSource } from '../../filters/event-source.js';
import { GROUP_CAPABLE_MATHS, type SeriesNode } from '../../nodes/schema.js';

/** The group type index the series counts, or null when it counts persons. */
export function countedGroupType(series: SeriesNode): number | null {
  const index = series.math_group_type_index;
  return index !== undefined && index !== null && GROUP_CAPABLE_MATHS.has(series.math) ? index : null;
}

export function seriesActor(series: SeriesNode, source: EventSource): Expr {
  return actorOf(countedGroupType(series), source);
}

/** When groups are counted, events without a group of that type are left out. */
export function actorFilter(series: SeriesNode, source: EventSource): Expr | undefined {
  return actorPresent(countedGroupType(series), source);
}
