// What `{filters}`' property filters read over a table other than events: a sessions, groups or
// persons table, each refusing the kinds of filter it has nothing for, with PostHog's messages.
import { binary, call } from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';
import { jsonProperty } from '../../catalog/fields.js';
import type { PropertySource } from '../../filters/properties.js';
import { HogQLQueryError } from '../errors.js';
import { typeOf } from './types.js';

/** Over the sessions table alone PostHog takes only session property filters, which Hoglet does not have. */
const refuseOnSessions = (): never => {
  throw new HogQLQueryError('Can only use session properties in a filter when selecting from only the sessions table.');
};
/** A session field a session property filter compares: as text, since filter values are (PostHog compares the field itself). */
export function sessionFilterField(resolved: Expr | undefined, key: string): Expr {
  if (!resolved) throw new HogQLQueryError(`Unable to resolve field: ${key}`);
  return typeOf(resolved).type === 'string' ? resolved : call('toString', resolved);
}

/**
 * The project's test-account filters over the sessions table alone: PostHog prints each as over
 * events (properties.x, person.properties.x, session.x) and resolves it against the sessions
 * table, which has none of those, so it is refused with its resolver's message; a HogQL filter
 * reads the session's own fields.
 */
const unresolved = (name: string) => (): never => {
  throw new HogQLQueryError(`Unable to resolve field: ${name}`);
};
export const SESSION_TEST_ACCOUNT_SOURCE: Omit<PropertySource, 'hogqlExpr'> = {
  eventProperty: unresolved('properties'), personProperty: unresolved('person'), sessionProperty: unresolved('session'),
  groupProperty: (index) => unresolved(`group_${index}`)(), inCohort: unresolved('person_id'),
};

export const SESSION_ROWS_SOURCE: PropertySource = {
  eventProperty: refuseOnSessions, personProperty: refuseOnSessions, groupProperty: refuseOnSessions, hogqlExpr: refuseOnSessions, inCohort: refuseOnSessions,
};

/** Group filters over a groups table read the row's properties (PostHog's group scope ignores the type index). */
export function groupRowsSource(properties: Expr, hogqlExpr: (text: string) => Expr): PropertySource {
  const refuse = (kind: string) => (): never => {
    throw new HogQLQueryError(`The '${kind}' property filter does not work in 'group' scope`);
  };
  return {
    groupProperty: (_index, key) => jsonProperty(properties, key),
    eventProperty: refuse('event'),
    personProperty: refuse('person'),
    hogqlExpr,
    inCohort: refuse('cohort'),
  };
}

/** Person filters over a persons table; the other kinds name what a person does not have. */
export function personRowsSource(properties: Expr, personId: Expr, hogqlExpr: (text: string) => Expr, cohortMembers: (id: number) => Select): PropertySource {
  const refuse = (kind: string) => (): never => {
    throw new HogQLQueryError(`The '${kind}' property filter does not work in 'person' scope`);
  };
  return {
    personProperty: (key) => jsonProperty(properties, key),
    eventProperty: refuse('event'),
    groupProperty: refuse('group'),
    hogqlExpr,
    inCohort: (id) => binary('IN', personId, cohortMembers(id)),
  };
}
