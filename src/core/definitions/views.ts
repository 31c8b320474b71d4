// PostHog's EventDefinition and PropertyDefinition shapes: the names, times and types from the
// stored data, the edited fields (description, tags, verified, hidden, a set type) from the
// metadata store when someone edited the definition, their empty values otherwise.
import type { EventNameRow, PropertyKeyRow } from '../../storage/events/definitions-repository.js';
import type { EventDefinitionRow, PropertyDefinitionRow, UserColumns, WithUsers } from '../../storage/meta/repositories/definition-metadata.js';
import { userView } from '../accounts/identity.js';
import { eventDefinitionId, propertyDefinitionId } from './ids.js';
import type { PropertyDefinitionType } from './property-params.js';
import type { SetPropertyType } from './edits.js';
import { propertyTypeOf } from './property-type.js';

/** ClickHouse DateTime64 text in UTC ("2024-05-01 10:00:00.000000") as ISO 8601. */
const isoTime = (text: string): string => `${text.replace(' ', 'T')}Z`;

const userOrNull = (user: UserColumns | null) => (user ? userView(user) : null);

/** The edited fields, as PostHog's enterprise serializers show them. */
function editedFields(stored: ((EventDefinitionRow | PropertyDefinitionRow) & WithUsers) | undefined) {
  return {
    description: stored?.description ?? null,
    tags: stored ? (JSON.parse(stored.tags) as string[]) : ([] as string[]),
    updated_at: stored?.updated_at ?? null,
    updated_by: userOrNull(stored?.updatedByUser ?? null),
    verified: stored?.verified === 1,
    verified_at: stored?.verified_at ?? null,
    verified_by: userOrNull(stored?.verifiedByUser ?? null),
    hidden: stored?.hidden === 1,
  };
}

export function eventDefinitionView(projectId: number, row: EventNameRow, stored?: EventDefinitionRow & WithUsers) {
  const edited = editedFields(stored);
  return {
    id: eventDefinitionId(projectId, row.name),
    name: row.name,
    owner: null,
    description: edited.description,
    // First seen: the earliest stored event of that name.
    created_at: isoTime(row.first_seen),
    updated_at: edited.updated_at,
    updated_by: edited.updated_by,
    last_seen_at: isoTime(row.last_seen),
    verified: edited.verified,
    verified_at: edited.verified_at,
    verified_by: edited.verified_by,
    hidden: edited.hidden,
    is_action: false,
    post_to_slack: false,
    default_columns: [] as string[],
    tags: edited.tags,
    volume_30_day: row.volume_30_day,
    query_usage_30_day: null,
  };
}

/** The owner as ids.ts and the metadata store name it: event, person or group:<index>. */
export const propertyOwner = (type: PropertyDefinitionType, groupTypeIndex: number | null): string => (type === 'group' ? `group:${groupTypeIndex}` : type);

export function propertyDefinitionView(
  projectId: number,
  type: PropertyDefinitionType,
  row: PropertyKeyRow,
  groupTypeIndex: number | null = null,
  stored?: PropertyDefinitionRow & WithUsers,
) {
  // A type someone set wins over the one read from the values seen.
  const propertyType = (stored?.property_type as SetPropertyType | null | undefined) ?? propertyTypeOf(row.kinds);
  const edited = editedFields(stored);
  return {
    id: propertyDefinitionId(projectId, propertyOwner(type, groupTypeIndex), row.name),
    name: row.name,
    description: edited.description,
    is_numerical: propertyType === 'Numeric',
    property_type: propertyType,
    tags: edited.tags,
    // Null unless `event_names` named events; then whether the key was seen on one of them.
    is_seen_on_filtered_events: row.seen,
    updated_at: edited.updated_at,
    updated_by: edited.updated_by,
    verified: edited.verified,
    verified_at: edited.verified_at,
    verified_by: edited.verified_by,
    hidden: edited.hidden,
  };
}
