// How much a cohort expands to: the cohorts it names, at any depth, are evaluated once per
// statement each (members.ts), so what a definition costs is the longest chain of cohorts naming
// cohorts and the conditions and groups of every cohort it reaches, each cohort counted once.
// Both are bounded, checked when a cohort is saved and again when a query names one.
import { isCohortGroup, type CohortGroup } from './schema.js';

/** The longest chain of cohorts naming cohorts below one cohort (A names B names C: 2). */
export const MAX_COHORT_NESTING = 20;
/** Groups and conditions of a cohort and of every cohort it reaches, each cohort counted once. */
export const MAX_COHORT_NODES = 2_000;

export interface CohortExpansion {
  /** References below the cohort along its longest chain; Infinity for a loop. */
  readonly depth: number;
  /** Groups and conditions over the cohort and every cohort it reaches (each once). */
  readonly nodes: number;
}

/**
 * Measures a definition with what it reaches. `criteriaOf` gives a named cohort's criteria (null
 * for a static, deleted or unknown one: a leaf); `rootId`, when the root is stored, makes a chain
 * back to it a loop.
 */
export function measureCohort(root: CohortGroup, criteriaOf: (id: number) => CohortGroup | null, rootId?: number): CohortExpansion {
  const reached = referenceHeights(root, criteriaOf, rootId);
  if (reached === null) return { depth: Infinity, nodes: Infinity };
  const nodes = [...reached.heights.keys()].reduce((sum, id) => sum + countNodes(criteriaOf(id)!), countNodes(root));
  return { depth: reached.depth, nodes };
}

/**
 * Every cohort with criteria that a definition reaches, with its height (0: names no such cohort;
 * else one more than the highest it names), and the definition's own depth; null for a loop.
 * Iterative, post-order, so no chain overflows the stack.
 */
export function referenceHeights(
  root: CohortGroup,
  criteriaOf: (id: number) => CohortGroup | null,
  rootId?: number,
): { heights: Map<number, number>; depth: number } | null {
  const heights = new Map<number, number>();
  const onPath = new Set<number>(rootId === undefined ? [] : [rootId]);
  const dynamicRefs = (group: CohortGroup) => [...new Set(referencesIn(group))].filter((id) => criteriaOf(id) !== null);
  const heightAbove = (refs: readonly number[]) => refs.reduce((highest, ref) => Math.max(highest, heights.get(ref)! + 1), 0);

  const stack: { id: number; refs: number[]; next: number }[] = [];
  const enter = (id: number) => {
    onPath.add(id);
    stack.push({ id, refs: dynamicRefs(criteriaOf(id)!), next: 0 });
  };
  const rootRefs = dynamicRefs(root);
  for (const start of rootRefs) {
    if (onPath.has(start)) return null;
    if (heights.has(start)) continue;
    enter(start);
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      if (top.next < top.refs.length) {
        const ref = top.refs[top.next++]!;
        if (onPath.has(ref)) return null;
        if (!heights.has(ref)) enter(ref);
        continue;
      }
      heights.set(top.id, heightAbove(top.refs));
      onPath.delete(top.id);
      stack.pop();
    }
  }
  return { heights, depth: heightAbove(rootRefs) };
}

/** What is over the budget, as a sentence; null when within it. */
export function budgetExcess(expansion: CohortExpansion, subject = 'This cohort'): string | null {
  if (expansion.depth > MAX_COHORT_NESTING) {
    const reach = Number.isFinite(expansion.depth) ? `reaches ${expansion.depth} levels of cohorts naming cohorts` : 'names cohorts in a loop';
    return `${subject} ${reach}; the budget is ${MAX_COHORT_NESTING} levels.`;
  }
  if (expansion.nodes > MAX_COHORT_NODES) {
    return `${subject} expands to ${expansion.nodes} conditions and groups with the cohorts it names (each counted once); `
      + `the budget is ${MAX_COHORT_NODES}.`;
  }
  return null;
}

/** The cohorts a group names directly, as often as it names them. */
function referencesIn(group: CohortGroup): number[] {
  const found: number[] = [];
  const pending: CohortGroup[] = [group];
  while (pending.length > 0) {
    for (const value of pending.pop()!.values) {
      if (isCohortGroup(value)) pending.push(value);
      else if (value.type === 'cohort') found.push(value.cohortId);
    }
  }
  return found;
}

function countNodes(group: CohortGroup): number {
  let nodes = 0;
  const pending: CohortGroup[] = [group];
  while (pending.length > 0) {
    const next = pending.pop()!;
    nodes += 1;
    for (const value of next.values) {
      if (isCohortGroup(value)) pending.push(value);
      else nodes += 1;
    }
  }
  return nodes;
}
