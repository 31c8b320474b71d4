// A cohort as the engine evaluates it: PostHog's `filters.properties`, a nested AND/OR group whose
// leaves are person-property conditions, behavioural conditions (what a person did, when, how
// often) and other cohorts, each optionally negated. A static cohort is its stored list of persons.
import type { PropertyFilter } from '../nodes/schema.js';

export const BEHAVIOURS = [
  'performed_event', 'performed_event_multiple', 'performed_event_first_time',
  'stopped_performing_event', 'restarted_performing_event',
] as const;
export type Behaviour = (typeof BEHAVIOURS)[number];

/** PostHog's behaviours Hoglet does not evaluate yet: refused with a 400 naming them. */
export const UNSUPPORTED_BEHAVIOURS = ['performed_event_regularly', 'performed_event_sequence'] as const;

export const TIME_INTERVALS = ['day', 'week', 'month', 'year'] as const;
export type TimeInterval = (typeof TIME_INTERVALS)[number];

/** `performed_event_multiple`'s comparison with operator_value (PostHog's count operators). */
export const COUNT_OPERATORS = ['gte', 'lte', 'exact', 'eq', 'gt', 'lt'] as const;
export type CountOperator = (typeof COUNT_OPERATORS)[number];

export interface TimeWindow {
  readonly value: number;
  readonly interval: TimeInterval;
}

export interface PersonCondition {
  readonly type: 'person';
  readonly filter: PropertyFilter;
  readonly negation: boolean;
}

export interface BehaviouralCondition {
  readonly type: 'behavioral';
  readonly behaviour: Behaviour;
  /** An event name, or an action's id (eventType 'actions'). */
  readonly key: string | number;
  readonly eventType: 'events' | 'actions';
  /** The recent window (time_value/time_interval), or explicit_datetime's start. */
  readonly window: TimeWindow | { readonly since: string };
  /** stopped/restarted: the earlier window (seq_time_value/seq_time_interval). */
  readonly earlierWindow?: TimeWindow;
  readonly countOperator?: CountOperator;
  readonly count?: number;
  /** Conditions on the events themselves (event properties). */
  readonly eventFilters: readonly PropertyFilter[];
  readonly negation: boolean;
}

export interface CohortReference {
  readonly type: 'cohort';
  readonly cohortId: number;
  readonly negation: boolean;
}

export type CohortCondition = PersonCondition | BehaviouralCondition | CohortReference;

export interface CohortGroup {
  readonly type: 'AND' | 'OR';
  readonly values: readonly (CohortCondition | CohortGroup)[];
}

/** What a query needs of one cohort (QueryContext.cohorts). */
export interface CohortDefinition {
  readonly id: number;
  readonly name: string;
  readonly isStatic: boolean;
  /** Null for a static cohort. */
  readonly properties: CohortGroup | null;
  /** Moves with every change of definition or (static) membership; cached results key on it. */
  readonly version: number;
}

export const isCohortGroup = (value: CohortCondition | CohortGroup): value is CohortGroup => value.type === 'AND' || value.type === 'OR';

/** The cohorts a definition names, at any depth. */
export function referencedCohorts(group: CohortGroup | null): number[] {
  if (!group) return [];
  return group.values.flatMap((value) => (isCohortGroup(value) ? referencedCohorts(value) : value.type === 'cohort' ? [value.cohortId] : []));
}

/** The actions a definition's behavioural conditions name. */
export function referencedActions(group: CohortGroup | null): number[] {
  if (!group) return [];
  return group.values.flatMap((value) => (isCohortGroup(value)
    ? referencedActions(value)
    : value.type === 'behavioral' && value.eventType === 'actions' ? [Number(value.key)] : []));
}
