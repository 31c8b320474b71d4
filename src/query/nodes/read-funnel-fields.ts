// FunnelsQuery fields beyond the shared ones: the actor (aggregation_group_type_index), PostHog's
// exclusion rule against the funnel's own steps, and the fields that change PostHog's answer but
// Hoglet does not implement (refused with 400 rather than answered as if absent).
import type { FunnelExclusion, PropertyGroup, SeriesNode } from './schema.js';
import { fail, join, readOptionalInteger, type Json, type JsonObject } from './read-json.js';

/** PostHog's query nodes: absent or null = persons, 0-4 = that group type. Only present when set. */
export function readAggregationGroup(node: JsonObject, path: string): { aggregation_group_type_index?: number } {
  const index = readOptionalInteger(node.aggregation_group_type_index, join(path, 'aggregation_group_type_index'), 0, 4);
  return index === null ? {} : { aggregation_group_type_index: index };
}

const set = (value: Json): boolean => value !== undefined && value !== null && value !== '' && value !== false;

/** Fields of PostHog's FunnelsQuery that would change the answer and that Hoglet does not implement. */
export function refuseUnsupportedFunnelFields(node: JsonObject, filter: JsonObject, series: readonly SeriesNode[], path: string): void {
  series.forEach((step, i) => {
    if (step.math === 'first_time_for_user') {
      fail(join(join(join(path, 'series'), i), 'math'), 'The first_time_for_user funnel step math is not supported yet; leave math unset to match every event of the step.');
    }
  });
  if (set(filter.funnelAggregateByHogQL)) {
    fail(join(join(path, 'funnelsFilter'), 'funnelAggregateByHogQL'), 'Aggregating funnels by a HogQL expression is not supported; use aggregation_group_type_index for groups.');
  }
  if (set(node.samplingFactor) && node.samplingFactor !== 1) {
    fail(join(path, 'samplingFactor'), 'Sampling is not supported: funnels always read every event.');
  }
}

/**
 * PostHog refuses an exclusion that is one of the steps it guards, or matches a subset of one (same
 * event or action, the step's property filters all among the exclusion's): its events would be
 * both the step and the exclusion (base.py, utils/entities.py is_equal / is_superset).
 */
export function refuseExclusionsOfOwnSteps(exclusions: readonly FunnelExclusion[], series: readonly SeriesNode[], path: string): void {
  exclusions.forEach((exclusion, i) => {
    for (let k = exclusion.funnelFromStep; k <= exclusion.funnelToStep; k++) {
      const step = series[k];
      if (step && sameEntity(step, exclusion) && includesFilters(exclusion.properties, step.properties)) {
        fail(join(path, i), `Exclusion steps cannot contain an event that's part of funnel steps (step ${k} is the same as this exclusion).`);
      }
    }
  });
}

function sameEntity(step: SeriesNode, exclusion: FunnelExclusion): boolean {
  if (step.kind !== exclusion.kind) return false;
  return step.kind === 'ActionsNode' ? step.id === exclusion.id : step.event === (exclusion.event ?? null);
}

/** Whether every filter of `subset` is among the filters of `superset` (flat AND lists; otherwise whole groups compared). */
function includesFilters(superset: PropertyGroup, subset: PropertyGroup): boolean {
  const available = leaves(superset);
  for (const filter of leaves(subset)) {
    const at = available.indexOf(filter);
    if (at < 0) return false;
    available.splice(at, 1);
  }
  return true;
}

function leaves(group: PropertyGroup): string[] {
  if (group.type === 'AND' && group.values.every((v) => !('values' in v))) return group.values.map((v) => JSON.stringify(v));
  return group.values.length === 0 ? [] : [JSON.stringify(group)];
}
