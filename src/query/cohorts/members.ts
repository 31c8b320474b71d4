// A cohort's members as one subquery of person ids, evaluated inside the query that uses it, so a
// query's answer reflects the cohort as of that query (no precomputed membership to go stale).
// Dynamic: every live person, joined to one pass over the events that the behavioural conditions
// read (one aggregate column per condition), filtered by the cohort's AND/OR tree. Static: the
// stored list.
// Cohorts naming cohorts are evaluated once each, however often they are named: every cohort the
// definition reaches becomes a 0/1 column over the same persons, computed in layers (a layer per
// height of the reference chain, each reading the columns below it), so a chain of N cohorts each
// naming the previous k times costs N columns, not k^N subqueries. The size is budgeted (budget.ts).
import { alias, and, binary, call, constant, eq, FALSE, field, leftJoin, not, or, select, subquery, table } from '../ast/build.js';
import type { Expr, Select } from '../ast/nodes.js';
import { jsonProperty } from '../catalog/fields.js';
import { latestPersons } from '../catalog/latest.js';
import type { QueryContext } from '../context.js';
import { propertyFilterExpr, type PropertySource } from '../filters/properties.js';
import { InternalError, ValidationError } from '../../errors.js';
import { behaviourColumns, type BehaviourColumns } from './behaviour.js';
import { budgetExcess, measureCohort, referenceHeights } from './budget.js';
import { isCohortGroup, type CohortCondition, type CohortDefinition, type CohortGroup } from './schema.js';

const PERSON = 'cohort_person';
const BEHAVIOUR = 'cohort_behaviour';
const memberColumn = (id: number) => `in_cohort_${id}`;
const passedBehaviour = (column: string) => `did_${column}`;

/** The person ids (column `person_id`) of the cohort as of the context's clock. */
export function cohortMembers(cohortId: number, context: QueryContext): Select {
  const cohort = definitionOf(cohortId, context);
  return cohort.isStatic || !cohort.properties ? staticMembers(cohort.id) : dynamicMembers(cohort.id, cohort.properties, context);
}

function definitionOf(cohortId: number, context: QueryContext): CohortDefinition {
  const cohort = context.cohorts?.get(cohortId);
  if (!cohort) throw new InternalError('cohort_unresolved', `cohort ${cohortId} was not resolved before the run`);
  return cohort;
}

function staticMembers(cohortId: number): Select {
  return select({
    select: [field('person_id')],
    from: table('static_cohort_people', 'static_members'),
    where: eq(field('cohort_id'), constant(cohortId, 'UInt64')),
    groupBy: [field('person_id')],
    having: eq(call('argMax', field('is_deleted'), field('version')), constant(false)),
  });
}

function dynamicMembers(rootId: number, root: CohortGroup, context: QueryContext): Select {
  const criteriaOf = (id: number): CohortGroup | null => {
    const cohort = definitionOf(id, context);
    return cohort.isStatic ? null : cohort.properties;
  };
  // The query's context has checked the budget; this keeps a cohort saved before it from running away.
  const excess = budgetExcess(measureCohort(root, criteriaOf, rootId), `Cohort ${rootId}`);
  const reached = referenceHeights(root, criteriaOf, rootId);
  if (excess !== null || reached === null) throw new ValidationError(excess ?? `Cohort ${rootId} names itself.`, null, 'cohort_budget');

  const layers: number[][] = [];
  for (const [id, height] of reached.heights) (layers[height] ??= []).push(id);
  const groups = [root, ...[...reached.heights.keys()].map((id) => criteriaOf(id)!)];
  const behaviour = behaviourColumns(Object.freeze({ type: 'AND', values: groups }), context);
  // The persons' properties are read only when a condition looks at them.
  const personProperties = groups.some(hasPersonConditions);
  const persons = latestPersons(personProperties ? ['properties'] : []);
  const joined = {
    from: subquery(persons, PERSON),
    ...(behaviour.query
      ? { joins: [leftJoin(subquery(behaviour.query, BEHAVIOUR), eq(field('behaviour_person', BEHAVIOUR), field('person_key', PERSON)))] }
      : {}),
  };
  const base = frame(context, behaviour, (column) => eq(call('ifNull', field(column, BEHAVIOUR), constant(0, 'UInt8')), constant(1, 'UInt8')));
  // An empty definition matches nobody (PostHog calculates it to 0 persons).
  const membersWhere = (scope: Scope) => groupExpr(root, scope) ?? FALSE;
  if (layers.length === 0) {
    return select({ select: [alias(field('person_key', PERSON), 'person_id')], ...joined, where: membersWhere(base) });
  }

  // Layer 0 passes on the persons and their behaviour columns, with the cohorts naming no cohort.
  const upper = frame(context, behaviour, (column) => eq(field(passedBehaviour(column), PERSON), constant(1, 'UInt8')));
  const memberColumns = (ids: readonly number[], scope: Scope) =>
    ids.map((id) => alias(call('toUInt8', groupExpr(criteriaOf(id)!, scope) ?? FALSE), memberColumn(id)));
  let below = select({
    select: [
      alias(field('person_key', PERSON), 'person_key'),
      ...(personProperties ? [alias(field('person_properties', PERSON), 'person_properties')] : []),
      ...behaviour.columns.map((column) => alias(call('toUInt8', call('ifNull', field(column, BEHAVIOUR), constant(0, 'UInt8'))), passedBehaviour(column))),
      ...memberColumns(layers[0]!, base),
    ],
    ...joined,
  });
  for (const ids of layers.slice(1)) {
    below = select({ select: [{ kind: 'star', table: PERSON }, ...memberColumns(ids, upper)], from: subquery(below, PERSON) });
  }
  return select({ select: [alias(field('person_key', PERSON), 'person_id')], from: subquery(below, PERSON), where: membersWhere(upper) });
}

interface Scope {
  readonly context: QueryContext;
  readonly personSource: PropertySource;
  /** Whether the person did what a behavioural condition's column says (a 0/1 test). */
  readonly did: (column: string) => Expr;
  readonly behaviour: BehaviourColumns;
}

/** How conditions read a person where they are evaluated (beside the behaviour join, or above it). */
function frame(context: QueryContext, behaviour: BehaviourColumns, did: (column: string) => Expr): Scope {
  const personSource: PropertySource = {
    eventProperty: () => FALSE,
    personProperty: (key) => jsonProperty(field('person_properties', PERSON), key),
    groupProperty: () => FALSE,
    hogqlExpr: () => FALSE,
    inCohort: (id) => {
      const cohort = definitionOf(id, context);
      return cohort.isStatic || !cohort.properties
        ? binary('IN', field('person_key', PERSON), staticMembers(cohort.id))
        : eq(field(memberColumn(id), PERSON), constant(1, 'UInt8'));
    },
  };
  return { context, personSource, did, behaviour };
}

function hasPersonConditions(group: CohortGroup): boolean {
  return group.values.some((value) => (isCohortGroup(value) ? hasPersonConditions(value) : value.type === 'person'));
}

function groupExpr(group: CohortGroup, scope: Scope): Expr | undefined {
  const parts = group.values
    .map((value) => (isCohortGroup(value) ? groupExpr(value, scope) : conditionExpr(value, scope)))
    .filter((part): part is Expr => part !== undefined);
  if (parts.length === 0) return undefined;
  return group.type === 'OR' ? or(...parts) : and(...parts);
}

function conditionExpr(condition: CohortCondition, scope: Scope): Expr {
  const positive = positiveExpr(condition, scope);
  return condition.negation ? not(positive) : positive;
}

function positiveExpr(condition: CohortCondition, scope: Scope): Expr {
  switch (condition.type) {
    case 'person':
      return propertyFilterExpr(condition.filter, scope.personSource, scope.context.project.timezone) ?? constant(true);
    case 'cohort':
      return scope.personSource.inCohort(condition.cohortId);
    case 'behavioral':
      // A person without matching events has no row in the behaviour join: did not do it.
      return scope.did(scope.behaviour.columnOf(condition));
  }
}
