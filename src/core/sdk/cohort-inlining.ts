// For local-evaluation definitions asked for without `send_cohorts` (older SDKs): a flag whose one
// cohort is a plain person-property cohort gets the cohort written out as person conditions, as
// PostHog's `transform_cohort_filters_for_easy_evaluation` does, so the SDK can decide it alone.
// Anything else goes as stored (the SDK then asks /flags/): more than one cohort (nested ones
// count), a cohort condition sharing its set with other properties, a variant override, a static,
// behavioural or negated cohort, and trees that are not an OR of ANDs. One choice differs: PostHog
// gives the written-out sets the rollout of the flag's last condition set; Hoglet gives them the
// cohort condition's own, so local answers agree with /flags/.
import { referencedCohorts } from '../../query/cohorts/schema.js';
import type { FlagCohort } from '../flags/definitions-cache.js';
import type { FlagConditionSet, FlagFilters } from '../flags/types.js';

interface TreeNode {
  type?: string;
  values?: TreeNode[];
  negation?: boolean;
  [field: string]: unknown;
}

const isGroup = (node: TreeNode): boolean => Array.isArray(node.values) && (node.type === 'AND' || node.type === 'OR');

function leaves(node: TreeNode): TreeNode[] {
  return isGroup(node) ? node.values!.flatMap(leaves) : [node];
}

/** PostHog's clear_excess_levels: single-member groups collapse, except directly under a wider group. */
function clearExcessLevels(node: TreeNode, skip = false): TreeNode {
  if (!isGroup(node)) return node;
  if (node.values!.length === 1) {
    return skip ? { ...node, values: node.values!.map((child) => clearExcessLevels(child)) } : clearExcessLevels(node.values![0]!);
  }
  return { ...node, values: node.values!.map((child) => clearExcessLevels(child, true)) };
}

/** The cohorts a flag names and every cohort those name (live ones only, as PostHog counts them). */
function cohortIdsWithDependencies(sets: readonly FlagConditionSet[], cohorts: ReadonlyMap<number, FlagCohort>): Set<number> {
  const found = new Set<number>();
  const queue = sets.flatMap((set) => (set.properties ?? []).filter((p) => p.type === 'cohort').map((p) => Number(p.value)));
  while (queue.length > 0) {
    const id = queue.pop()!;
    const cohort = cohorts.get(id);
    if (!cohort || found.has(id)) continue;
    found.add(id);
    queue.push(...referencedCohorts(cohort.definition.properties));
  }
  return found;
}

export function inlineSimpleCohort(filters: FlagFilters, cohorts: ReadonlyMap<number, FlagCohort>): FlagFilters {
  const sets = filters.groups ?? [];
  if (cohortIdsWithDependencies(sets, cohorts).size !== 1) return filters;
  const kept: FlagConditionSet[] = [];
  let cohort: FlagCohort | undefined;
  let rollout: number | null = null;
  for (const set of sets) {
    if (set.variant) return filters;
    const properties = set.properties ?? [];
    const cohortProperty = properties.find((p) => p.type === 'cohort');
    if (!cohortProperty) {
      kept.push(set);
      continue;
    }
    if (properties.length > 1) return filters;
    cohort = cohorts.get(Number(cohortProperty.value));
    if (!cohort) return filters;
    rollout = set.rollout_percentage ?? null;
  }
  if (!cohort || cohort.definition.isStatic || cohort.properties === null || typeof cohort.properties !== 'object') return filters;
  const tree = cohort.properties as TreeNode;
  const flat = leaves(tree);
  if (flat.length === 0 || !flat.every((leaf) => leaf.type === 'person') || flat.some((leaf) => leaf.negation === true)) return filters;

  const asSet = (properties: TreeNode[]): FlagConditionSet => ({ properties: properties as unknown as FlagConditionSet['properties'], rollout_percentage: rollout });
  const target = clearExcessLevels(tree);
  if (!isGroup(target)) {
    kept.push(asSet([target]));
  } else if (!isGroup(target.values![0]!)) {
    if (target.type === 'AND') kept.push(asSet(target.values!));
    else for (const leaf of target.values!) kept.push(asSet([leaf]));
  } else {
    // An OR of groups becomes one condition set per group; an AND of groups is left alone.
    if (target.type === 'AND') return filters;
    for (const group of target.values!) {
      const members = group.values ?? [];
      if (members.length === 0 || isGroup(members[0]!) || (group.type === 'OR' && members.length > 1)) return filters;
      kept.push(asSet(members));
    }
  }
  return { ...filters, groups: kept };
}
