// PostHog's EventDefinition and PropertyDefinition shapes for definitions computed from stored
// data: nothing about them was ever edited, so the editorial fields are their empty values.
import type { EventNameRow, PropertyKeyRow } from '../../storage/events/definitions-repository.js';
import { eventDefinitionId, propertyDefinitionId } from './ids.js';
import type { PropertyDefinitionType } from './property-params.js';
import { propertyTypeOf } from './property-type.js';

/** ClickHouse DateTime64 text in UTC ("2024-05-01 10:00:00.000000") as ISO 8601. */
const isoTime = (text: string): string => `${text.replace(' ', 'T')}Z`;

export function eventDefinitionView(projectId: number, row: EventNameRow) {
  return {
    id: eventDefinitionId(projectId, row.name),
    name: row.name,
    owner: null,
    description: null,
    // First seen: the earliest stored event of that name.
    created_at: isoTime(row.first_seen),
    updated_at: null,
    updated_by: null,
    last_seen_at: isoTime(row.last_seen),
    verified: false,
    verified_at: null,
    verified_by: null,
    hidden: false,
    is_action: false,
    post_to_slack: false,
    default_columns: [] as string[],
    tags: [] as string[],
    volume_30_day: null,
    query_usage_30_day: null,
  };
}

export function propertyDefinitionView(projectId: number, type: PropertyDefinitionType, row: PropertyKeyRow, groupTypeIndex: number | null = null) {
  const propertyType = propertyTypeOf(row.kinds);
  return {
    id: propertyDefinitionId(projectId, type === 'group' ? `group:${groupTypeIndex}` : type, row.name),
    name: row.name,
    description: null,
    is_numerical: propertyType === 'Numeric',
    property_type: propertyType,
    tags: [] as string[],
    // Null unless `event_names` named events; then whether the key was seen on one of them.
    is_seen_on_filtered_events: row.seen,
    updated_at: null,
    updated_by: null,
    verified: false,
    verified_at: null,
    verified_by: null,
    hidden: false,
  };
}
