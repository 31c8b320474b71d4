// Who a flag is evaluated for, and what the evaluator knows of the project (no storage here).
import type { CohortDefinition } from '../../../query/cohorts/schema.js';

export interface FlagSubject {
  distinctId: string;
  deviceId?: string | null;
  /** The person's stored properties overlaid with the request's person_properties (request wins). */
  personProperties: Record<string, unknown>;
  /** Group type name -> group key, from the request's `groups`. */
  groups: Record<string, string>;
  /** Group type name -> the group's stored properties overlaid with the request's. */
  groupProperties: Record<string, Record<string, unknown>>;
  /** Experience continuity: the stored hash key override for a flag key, if any. */
  hashKeyOverride?: (flagKey: string) => string | undefined;
  /** Static cohorts (ids) the person belongs to. */
  staticCohortIds: ReadonlySet<number>;
}

export interface FlagEvaluationContext {
  groupTypeMapping: ReadonlyMap<number, string>;
  cohorts: ReadonlyMap<number, CohortDefinition>;
  /** The project's time zone, for naive dates. */
  timezone: string;
  now: Date;
}

/** PostHog's name for the first value of a property: `$browser` -> `$initial_browser`, `utm_source` -> `$initial_utm_source`. */
export const initialKey = (key: string): string => `$initial_${key.startsWith('$') ? key.slice(1) : key}`;

/** Missing `$initial_<x>` keys filled from `<x>` (reference 2.5), so a request's fresh values match both. */
export function withInitialProperties(properties: Record<string, unknown>): Record<string, unknown> {
  const filled: Record<string, unknown> = { ...properties };
  for (const [key, value] of Object.entries(properties)) {
    if (!key.startsWith('$initial_') && !Object.hasOwn(properties, initialKey(key))) filled[initialKey(key)] = value;
  }
  return filled;
}
