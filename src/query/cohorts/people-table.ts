// HogQL's `cohort_people` table (PostHog's posthog/hogql/database/schema/cohort_people.py): a row
// (person_id, cohort_id) per member of each of the project's dynamic cohorts. PostHog reads a
// precomputed membership; Hoglet calculates cohorts in the query, so the table is the UNION ALL of
// the cohorts' member selects (members.ts, each under the cohort budgets), tagged with their ids.
// Only the cohorts a query can need are read: the ids its cohort_id comparisons with constants
// name, when every read of the table is narrowed so; else every dynamic cohort, up to a budget.
import { alias, constant, FALSE, field, select, subquery, union } from '../ast/build.js';
import type { Select, Union } from '../ast/nodes.js';
import type { QueryContext } from '../context.js';
import { chainOf, child, children, isNode, type HogQLNode } from '../hogql/translate/hogql-ast.js';
import { HogQLQueryError } from '../hogql/errors.js';
import { walkObjects } from '../tree/walk.js';
import { cohortMembers } from './members.js';

export const COHORT_PEOPLE_TABLE = 'cohort_people';
/** Cohorts one query may read through cohort_people (each is a calculation of its own). */
export const MAX_COHORT_PEOPLE_COHORTS = 20;

/** PostHog's cohort_people holds dynamic cohorts only (static ones are person_static_cohort). */
export function cohortPeopleIds(wanted: readonly number[] | 'all', dynamicIds: readonly number[]): number[] {
  const ids = wanted === 'all' ? [...dynamicIds] : dynamicIds.filter((id) => wanted.includes(id));
  if (ids.length > MAX_COHORT_PEOPLE_COHORTS) {
    throw new HogQLQueryError(
      `The cohort_people table would calculate ${ids.length} cohorts; the budget is ${MAX_COHORT_PEOPLE_COHORTS}. `
      + 'Filter it on cohort_id with constants (WHERE cohort_id = 5, or cohort_id IN (5, 6)).',
    );
  }
  return ids.sort((a, b) => a - b);
}

/** The table's rows for the context's cohorts (QueryContext.cohortPeople): person_id, cohort_id. */
export function cohortPeopleRows(context: QueryContext): Select | Union {
  const ids = context.cohortPeople ?? [];
  const tagged = ids.map((id) => select({
    select: [alias(field('person_id', 'cohort_members'), 'person_id'), alias(constant(id, 'Int64'), 'cohort_id')],
    from: subquery(cohortMembers(id, context), 'cohort_members'),
  }));
  if (tagged.length === 0) {
    // No cohort: no rows, typed as the members' columns are.
    return select({ select: [alias(constant('00000000-0000-0000-0000-000000000000', 'UUID'), 'person_id'), alias(constant(0, 'Int64'), 'cohort_id')], where: FALSE });
  }
  return tagged.length === 1 ? tagged[0]! : union(...tagged);
}

/** The table's names: PostHog keeps cohort_membership (and posthog.cohort_membership) for saved queries. */
export const COHORT_PEOPLE_NAMES: ReadonlySet<string> = new Set([COHORT_PEOPLE_TABLE, 'cohort_membership', 'posthog.cohort_membership']);

const isCohortPeople = (table: HogQLNode | undefined) => table?.node === 'Field' && COHORT_PEOPLE_NAMES.has(chainOf(table).join('.'));

/** The ANDed parts of an expression (`a AND b AND c`: a, b, c). */
function conjuncts(expr: HogQLNode | undefined): HogQLNode[] {
  if (!expr) return [];
  return expr.node === 'And' ? children(expr, 'exprs').flatMap(conjuncts) : [expr];
}

/** Positive whole numbers of `cohort_id = 5`, `5 = c.cohort_id` or `cohort_id IN (5, 6)`; null when the part says nothing of them. */
function idsNamedBy(part: HogQLNode, names: ReadonlySet<string>): number[] | null {
  if (part.node !== 'CompareOperation') return null;
  const isCohortId = (n: HogQLNode | undefined) => n?.node === 'Field' && names.has(chainOf(n).join('.'));
  const ids = (n: HogQLNode | undefined): number[] | null => {
    const values = n?.node === 'Constant' ? [n['value']] : n?.node === 'Tuple' || n?.node === 'Array' ? children(n, 'exprs').map((e) => (e.node === 'Constant' ? e['value'] : undefined)) : [undefined];
    return values.every((v) => typeof v === 'number' && Number.isSafeInteger(v)) ? (values as number[]) : null;
  };
  const op = String(part['op']);
  const left = child(part, 'left');
  const right = child(part, 'right');
  if (op === '==') return isCohortId(left) ? ids(right) : isCohortId(right) ? ids(left) : null;
  if (op === 'in') return isCohortId(left) ? ids(right) : null;
  return null;
}

/**
 * The cohorts a query's reads of cohort_people can need: null when it reads no such table; 'all'
 * when one read is not narrowed; else the ids named by cohort_id comparisons with constants that
 * every row must pass (an AND part of its SELECT's WHERE, or of the ON of an inner or left join
 * of it), which the other rows could never pass anyway.
 */
export function cohortPeopleWanted(root: HogQLNode): number[] | 'all' | null {
  let reads = 0;
  let all = false;
  const wanted = new Set<number>();
  walkObjects(root, (node) => {
    if (!isNode(node) || node.node !== 'SelectQuery') return 'descend';
    const joins: HogQLNode[] = [];
    for (let join = child(node, 'select_from'); join; join = child(join, 'next_join')) joins.push(join);
    // A bare cohort_id may be a subquery's column, or the SELECT's own alias (WHERE may read it).
    const bareIsOthers = joins.some((join) => child(join, 'table')?.node !== 'Field')
      || children(node, 'select').some((item) => item.node === 'Alias' && item['alias'] === 'cohort_id');
    joins.forEach((join, index) => {
      if (!isCohortPeople(child(join, 'table'))) return;
      reads += 1;
      const written = chainOf(child(join, 'table')!).join('.');
      const name = typeof join['alias'] === 'string' ? join['alias'] : written === 'posthog.cohort_membership' ? 'cohort_membership' : written;
      const names = new Set([`${name}.cohort_id`, ...(bareIsOthers ? [] : ['cohort_id'])]);
      const type = String(join['join_type'] ?? '');
      const onNarrows = index > 0 && !/RIGHT|FULL|CROSS/i.test(type);
      const parts = [...conjuncts(child(node, 'where')), ...(onNarrows ? conjuncts(child(child(join, 'constraint') ?? { node: 'x' }, 'expr')) : [])];
      const found = parts.map((part) => idsNamedBy(part, names)).filter((ids): ids is number[] => ids !== null);
      // Every named list must hold: their intersection narrows the read.
      if (found.length === 0) all = true;
      else for (const id of found.reduce((a, b) => a.filter((x) => b.includes(x)))) wanted.add(id);
    });
    return 'descend';
  });
  if (reads === 0) return null;
  return all ? 'all' : [...wanted];
}
