// Property types in HogQL, as PostHog's PropertySwapper applies its property definitions: a
// top-level property (`properties.x`, `person.properties.x`, `group_0.properties.x`) whose
// definition is Numeric reads as a Float, DateTime as a DateTime in the project's time zone,
// Boolean as a Bool ('true' / 'false'); String and unknown ones stay the text they are today.
import { array, constant } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import type { PropertyType } from '../catalog/property-type.js';
import { userCall } from './translate/calls.js';
import { typed } from './translate/types.js';

/** Whose property: the event's, its person's, or a group's of one type. */
export type PropertyOwner = 'event' | 'person' | { readonly group: number };

/** One property definition's identity: owner and name. */
export const propertyRefKey = (owner: PropertyOwner, name: string): string =>
  `${typeof owner === 'string' ? owner : `group:${owner.group}`}\u0000${name}`;

/** What a translation asks: a property's type, when its definition is known. */
export interface PropertyTypeLookup {
  typeOf(owner: PropertyOwner, name: string): PropertyType | undefined;
}

/**
 * The types known to one query. A property asked for and not known yet is remembered, so the
 * caller can read its definition (one statement for all of them) and translate once more.
 */
export class KnownPropertyTypes implements PropertyTypeLookup {
  readonly missing = new Map<string, { owner: PropertyOwner; name: string }>();

  /** `known.get`: a property's type by propertyRefKey (null: unknown), undefined when not read yet. */
  constructor(private readonly known: Pick<ReadonlyMap<string, PropertyType | null>, 'get'>) {}

  /** Every property asked for, by propertyRefKey. */
  readonly asked = new Set<string>();

  /** The types of the properties `asked` names (null: unknown), as this lookup knows them. */
  typesOf(asked: ReadonlySet<string>): ReadonlyMap<string, PropertyType | null> {
    return new Map([...asked].map((key) => [key, this.known.get(key) ?? null] as const));
  }

  typeOf(owner: PropertyOwner, name: string): PropertyType | undefined {
    const key = propertyRefKey(owner, name);
    this.asked.add(key);
    const type = this.known.get(key);
    if (type === undefined) this.missing.set(key, { owner, name });
    return type ?? undefined;
  }
}

const plainCall = (name: string, args: Expr[], timezone: string) => userCall({ name, args, distinct: false }, { timezone }).call;

/**
 * A property's text read as its type, as PostHog prints it: toFloat(x), toDateTime(x) (parsed in
 * the project's time zone), toBool(transform(toString(x), ['true', 'false'], [1, 0], NULL)).
 * String leaves the read exactly as it was.
 */
export function asPropertyType(value: Expr, type: PropertyType, timezone: string): Expr {
  switch (type) {
    case 'Numeric':
      return typed(plainCall('toFloat', [value], timezone), 'float', true);
    case 'DateTime':
      return typed(plainCall('toDateTime', [value], timezone), 'datetime', true);
    case 'Boolean': {
      const flag = plainCall('transform', [
        plainCall('toString', [value], timezone),
        array(constant('true'), constant('false')),
        array(constant(1, 'UInt8'), constant(0, 'UInt8')),
        constant(null, 'Nullable(Nothing)'),
      ], timezone);
      return typed(plainCall('toBool', [flag], timezone), 'boolean', true);
    }
    case 'String':
      return value;
  }
}

/**
 * PostHog's conversions that parse a string themselves (toFloatOrZero and kin): a property right
 * inside one keeps its text, since ClickHouse refuses them a number.
 */
export const STRING_PARSERS: ReadonlySet<string> = new Set(['toFloatOrZero', 'toIntOrZero', 'toFloatOrDefault']);

/**
 * Reserved AI properties PostHog always reads as text, whatever type was detected (trace ids
 * that look like timestamps must not be parsed as dates).
 */
export const ALWAYS_STRING_EVENT_PROPERTIES: ReadonlySet<string> = new Set([
  '$ai_trace_id', '$ai_session_id', '$ai_parent_id', '$ai_span_id', '$ai_generation_id', '$ai_experiment_id',
]);
