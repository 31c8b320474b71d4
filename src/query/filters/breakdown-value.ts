// A breakdown's property read for one event (or its person or group), as text: what every kind
// groups by. A missing, null or "" property becomes `missing` (trends' null marker, '' elsewhere).
import { call, constant } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import type { BreakdownFilter } from '../nodes/schema.js';
import type { EventSource } from './event-source.js';
import { propertySource } from './properties.js';

export function breakdownProperty(breakdown: BreakdownFilter, source: EventSource): Expr {
  return propertySource({ key: breakdown.breakdown, type: breakdown.breakdown_type, group_type_index: breakdown.breakdown_group_type_index ?? 0 }, source);
}

export function breakdownText(breakdown: BreakdownFilter, source: EventSource, missing: string): Expr {
  return call('ifNull', call('toString', breakdownProperty(breakdown, source)), constant(missing));
}
