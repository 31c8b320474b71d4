// What a cached answer depends on besides the query node: the definitions in its query context.
// A result is cached under a key that covers them, so a change of any of them (an action's steps or
// name, the project's timezone, week start or test-account filters) makes the next read miss the
// old entry instead of serving it as fresh. The context is resolved for one query, so a definition
// the query does not use (another action, test-account filters when they are off) is not in it.
import type { QueryContext } from '../context.js';

/**
 * Every field of the context except the clock, which staleness rules handle. The type makes the
 * compiler ask for a line here whenever the context gains a field (cohorts, group types, ...).
 */
export function definitionsOf(context: QueryContext): Record<Exclude<keyof QueryContext, 'now'>, unknown> {
  return {
    project: context.project,
    // By id, so the order the query named them in does not matter; a missing action is absent.
    actions: [...context.actions.values()].sort((a, b) => a.id - b.id),
    testAccountFilters: context.testAccountFilters,
    pathCleaningRules: context.pathCleaningRules,
    // Definitions and versions (a static cohort's list moves its version), by id.
    cohorts: [...(context.cohorts?.values() ?? [])].sort((a, b) => a.id - b.id),
    cohortNames: [...(context.cohortNames ?? [])].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    // Which cohorts cohort_people reads (their definitions are in `cohorts`).
    cohortPeople: context.cohortPeople,
    // Parsed from texts the query node holds, so the node's own key already covers them.
    hogql: undefined,
    // What the data said a property is: a new type reads the property otherwise, so it is a new result.
    propertyTypes: context.propertyTypes ? [...context.propertyTypes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : undefined,
    // A type a person set reads the property otherwise too.
    propertyTypeOverrides: context.propertyTypeOverrides ? [...context.propertyTypeOverrides].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : undefined,
  };
}
