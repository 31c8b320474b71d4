// The cohorts a HogQL query names with IN COHORT (by id or by name), found before the run so the
// query context can carry their definitions; the translator then reads them from there.
import type { HogQLNode } from './translate/hogql-ast.js';
import { walkObjects } from '../tree/walk.js';
import { sharedHogQLParser } from './parse/index.js';
import { placeholderValue } from './placeholder-value.js';
import { cohortPeopleWanted } from '../cohorts/people-table.js';

export const IN_COHORT_OPERATORS: ReadonlySet<string> = new Set(['in cohort', 'not in cohort']);

export interface HogQLCohortMentions {
  readonly ids: number[];
  readonly names: string[];
  /** The cohorts its cohort_people reads can need (cohorts/people-table.ts); null without such a read. */
  readonly cohortPeople: number[] | 'all' | null;
}

/** The cohort ids and names after IN COHORT in a HogQL SELECT: constants, or placeholders' values. */
export async function cohortMentionsIn(text: string, projectId: number, values: Readonly<Record<string, unknown>> = {}): Promise<HogQLCohortMentions> {
  if (!/\bcohort(?:_people|_membership)?\b/i.test(text)) return { ids: [], names: [], cohortPeople: null };
  const root = await sharedHogQLParser().parse('select', text, projectId);
  const ids = new Set<number>();
  const names = new Set<string>();
  walkObjects(root, (node) => {
    if (node.node === 'CompareOperation' && IN_COHORT_OPERATORS.has(String(node.op))) {
      const right = node.right as HogQLNode | undefined;
      const value = right?.node === 'Constant' ? right['value'] : right?.node === 'Placeholder' ? placeholderValue(right, values) : undefined;
      if (typeof value === 'number' && Number.isInteger(value) && value > 0) ids.add(value);
      if (typeof value === 'string') names.add(value);
    }
    return 'descend';
  });
  return { ids: [...ids], names: [...names], cohortPeople: cohortPeopleWanted(root) };
}
