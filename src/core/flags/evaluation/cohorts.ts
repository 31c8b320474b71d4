// Cohort conditions of a flag (reference feature-flags.md 2.7): a static cohort by stored
// membership, a dynamic one by its person-property tree (AND/OR, negation, nested cohorts) over the
// merged person properties. A cohort that needs events (behavioural) cannot be decided here; the
// flags API refuses it, and should one slip through its condition never matches, `in` or `not_in`.
import type { CohortCondition, CohortDefinition, CohortGroup } from '../../../query/cohorts/schema.js';
import { isCohortGroup } from '../../../query/cohorts/schema.js';
import { matchProperty, type MatchOptions } from './operators.js';

/** Membership could not be decided (unknown, behavioural or self-referencing cohort). */
class Undecidable extends Error {}

export interface CohortInputs {
  cohorts: ReadonlyMap<number, CohortDefinition>;
  staticCohortIds: ReadonlySet<number>;
  personProperties: Record<string, unknown>;
  options: MatchOptions;
}

function conditionHolds(condition: CohortCondition, inputs: CohortInputs, visiting: Set<number>): boolean {
  if (condition.type === 'behavioral') throw new Undecidable();
  const holds = condition.type === 'person'
    ? matchProperty({ key: condition.filter.key, operator: condition.filter.operator, value: condition.filter.value }, inputs.personProperties, inputs.options)
    : isMember(condition.cohortId, inputs, visiting);
  return condition.negation ? !holds : holds;
}

function groupHolds(group: CohortGroup, inputs: CohortInputs, visiting: Set<number>): boolean {
  if (group.values.length === 0) return true;
  const test = (value: CohortCondition | CohortGroup): boolean => (isCohortGroup(value) ? groupHolds(value, inputs, visiting) : conditionHolds(value, inputs, visiting));
  // Every branch is visited (no short-circuit) so a behavioural leaf anywhere makes the cohort undecidable.
  const results = group.values.map(test);
  return group.type === 'AND' ? results.every(Boolean) : results.some(Boolean);
}

/**
 * Each cohort's answer for these inputs, once: cohorts naming a cohort twice at every level would
 * otherwise cost 2^depth (bench/attacks: 20 levels made one /flags/ request ~150 ms). Sound for
 * undecidable too: a cohort that meets a cycle from one path is on that cycle from every path.
 */
const answers = new WeakMap<CohortInputs, Map<number, boolean | Undecidable>>();

function isMember(cohortId: number, inputs: CohortInputs, visiting: Set<number>): boolean {
  let known = answers.get(inputs);
  if (!known) answers.set(inputs, (known = new Map()));
  const before = known.get(cohortId);
  if (before instanceof Undecidable) throw before;
  if (before !== undefined) return before;
  const cohort = inputs.cohorts.get(cohortId);
  if (!cohort || visiting.has(cohortId)) throw new Undecidable();
  if (cohort.isStatic) return inputs.staticCohortIds.has(cohortId);
  if (!cohort.properties) return false;
  visiting.add(cohortId);
  try {
    const member = groupHolds(cohort.properties, inputs, visiting);
    known.set(cohortId, member);
    return member;
  } catch (error) {
    if (error instanceof Undecidable) known.set(cohortId, error);
    throw error;
  } finally {
    visiting.delete(cohortId);
  }
}

/** A flag's `{type: "cohort", key: "id", value, operator: in | not_in}` condition. */
export function matchCohortFilter(value: unknown, operator: string | null | undefined, inputs: CohortInputs): boolean {
  const cohortId = Number(value);
  if (!Number.isInteger(cohortId)) return false;
  try {
    const member = isMember(cohortId, inputs, new Set());
    return operator === 'not_in' ? !member : member;
  } catch (error) {
    if (error instanceof Undecidable) return false;
    throw error;
  }
}
