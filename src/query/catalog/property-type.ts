// A property's type, decided from the kinds of value it was seen with (PostHog's property_type).
// The definitions API lists it and HogQL reads a property by it, so both share this one rule.
import type { ValueKind } from '../../storage/events/definitions-repository.js';

export type PropertyType = 'Numeric' | 'Boolean' | 'String' | 'DateTime';

/**
 * What counts as a DateTime value: a JSON string holding an ISO 8601 date, optionally with a time
 * ("2024-05-01", "2024-05-01T10:00", "2024-05-01 10:00:00.123+02:00", "...Z"). RE2 syntax,
 * matched against the value's raw JSON text, quotes included.
 */
export const DATETIME_PATTERN =
  '^"\\d{4}-\\d{2}-\\d{2}([T ]\\d{2}:\\d{2}(:\\d{2}([.,]\\d+)?)?(Z|[+-]\\d{2}(:?\\d{2})?)?)?"$';

/**
 * The rule, over every non-null value seen: all JSON numbers -> Numeric; all JSON booleans ->
 * Boolean; all strings that look like datetimes (DATETIME_PATTERN) -> DateTime; all strings,
 * some of them or none datetimes -> String. Anything else (only nulls, objects or arrays, or
 * kinds mixed such as numbers and strings) is unknown: null.
 */
export function propertyTypeOf(kinds: readonly ValueKind[]): PropertyType | null {
  const seen = new Set(kinds.filter((kind) => kind !== 'null'));
  if (seen.size === 1) {
    if (seen.has('number')) return 'Numeric';
    if (seen.has('boolean')) return 'Boolean';
    if (seen.has('datetime')) return 'DateTime';
    if (seen.has('string')) return 'String';
    return null;
  }
  if (seen.size === 2 && seen.has('string') && seen.has('datetime')) return 'String';
  return null;
}
