// A cohort's members as one subquery of person ids, evaluated inside the query that uses it, so a
// query's answer reflects the cohort as of that query (no precomputed membership to go stale).
// Dynamic: every live person, joined to one pass over the events that the behavioural conditions
// read (one aggregate column per condition), filtered by the cohort's AND/OR tree. Static: the
// stored list. Cohorts naming cohorts nest their subqueries (cycles are refused when saved).
import { alias, and, binary, call, constant, eq, FALSE, field, leftJoin, not, or, select, subquery, table } from '../ast/build.js';
import type { Expr, Select } from '../ast/nodes.js';
import { jsonProperty } from '../catalog/fields.js';
import { latestPersons } from '../catalog/latest.js';
import type { QueryContext } from '../context.js';
import { propertyFilterExpr, type PropertySource } from '../filters/properties.js';
import { InternalError } from '../../errors.js';
import { behaviourColumns, type BehaviourColumns } from './behaviour.js';
import { isCohortGroup, type CohortCondition, type CohortDefinition, type CohortGroup } from './schema.js';

/** How deep cohorts may name cohorts before we suspect a cycle the save did not catch. */
const MAX_NESTING = 20;
const PERSON = 'cohort_person';
const BEHAVIOUR = 'cohort_behaviour';

/** The person ids (column `person_id`) of the cohort as of the context's clock. */
export function cohortMembers(cohortId: number, context: QueryContext, trail: readonly number[] = []): Select {
  const cohort = context.cohorts?.get(cohortId);
  if (!cohort) throw new InternalError('cohort_unresolved', `cohort ${cohortId} was not resolved before the run`);
  if (trail.includes(cohortId) || trail.length > MAX_NESTING) throw new InternalError('cohort_cycle', `cohort ${cohortId} names itself`);
  return cohort.isStatic || !cohort.properties ? staticMembers(cohort) : dynamicMembers(cohort, cohort.properties, context, [...trail, cohortId]);
}

function staticMembers(cohort: CohortDefinition): Select {
  return select({
    select: [field('person_id')],
    from: table('static_cohort_people', 'static_members'),
    where: eq(field('cohort_id'), constant(cohort.id, 'UInt64')),
    groupBy: [field('person_id')],
    having: eq(call('argMax', field('is_deleted'), field('version')), constant(false)),
  });
}

function dynamicMembers(cohort: CohortDefinition, group: CohortGroup, context: QueryContext, trail: readonly number[]): Select {
  const behaviour = behaviourColumns(group, context);
  // The persons' properties are read only when a condition looks at them.
  const persons = latestPersons(hasPersonConditions(group) ? ['properties'] : []);
  const personSource: PropertySource = {
    eventProperty: () => FALSE,
    personProperty: (key) => jsonProperty(field('person_properties', PERSON), key),
    groupProperty: () => FALSE,
    hogqlExpr: () => FALSE,
    inCohort: (id) => binary('IN', field('person_key', PERSON), cohortMembers(id, context, trail)),
  };
  const condition = groupExpr(group, { context, personSource, behaviour, trail });
  return select({
    select: [alias(field('person_key', PERSON), 'person_id')],
    from: subquery(persons, PERSON),
    ...(behaviour.query
      ? { joins: [leftJoin(subquery(behaviour.query, BEHAVIOUR), eq(field('behaviour_person', BEHAVIOUR), field('person_key', PERSON)))] }
      : {}),
    // An empty definition matches nobody (PostHog calculates it to 0 persons).
    where: condition ?? FALSE,
  });
}

function hasPersonConditions(group: CohortGroup): boolean {
  return group.values.some((value) => (isCohortGroup(value) ? hasPersonConditions(value) : value.type === 'person'));
}

interface Scope {
  readonly context: QueryContext;
  readonly personSource: PropertySource;
  readonly behaviour: BehaviourColumns;
  readonly trail: readonly number[];
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
    case 'behavioral': {
      const column = scope.behaviour.columnOf(condition);
      // A person without matching events has no row in the behaviour join: did not do it.
      return eq(call('ifNull', field(column, BEHAVIOUR), constant(0, 'UInt8')), constant(1, 'UInt8'));
    }
  }
}
