// Request and response schemas of the taxonomy endpoints (PostHog's EventDefinition and
// PropertyDefinition enterprise serializers): names computed from stored data, edits stored.
import { Type } from 'typebox';
import { Nullable } from './common.js';
import { UserBasic } from './identity.js';

const page = {
  limit: Type.Optional(Type.String({ description: 'page size (default 100)' })),
  offset: Type.Optional(Type.String({ description: 'index of the first result (default 0)' })),
};

export const EventDefinitionListQuery = Type.Object({
  ...page,
  search: Type.Optional(Type.String({ description: 'case-insensitive text in the event name' })),
  event_type: Type.Optional(Type.String({ description: 'event (default), event_custom (names without $) or event_posthog (names with $)' })),
  exclude_hidden: Type.Optional(Type.String({ description: 'true: leave out hidden definitions' })),
  verified: Type.Optional(Type.String({ description: 'true: only verified definitions; false: only unverified ones' })),
  names: Type.Optional(Type.String({ description: 'comma-separated exact names' })),
  ordering: Type.Optional(Type.String({ description: 'name, last_seen_at, created_at or volume_30_day, - for descending, comma-separated; default name' })),
});

/** PATCH body of both definitions; unknown and read-only fields are ignored, as DRF ignores them. */
export const DefinitionEditBody = Type.Object({
  description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
  tags: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 1000 })),
  verified: Type.Optional(Type.Boolean()),
  hidden: Type.Optional(Type.Boolean({ description: 'hidden definitions are left out of pickers (exclude_hidden=true); hiding unverifies' })),
  property_type: Type.Optional(
    Nullable(Type.String({ description: 'property definitions only: DateTime, String, Numeric, Boolean or Duration; null: typed from the values seen' })),
  ),
});

export const PropertyDefinitionListQuery = Type.Object({
  ...page,
  type: Type.Optional(Type.String({ description: 'event (default), person or group' })),
  group_type_index: Type.Optional(Type.String({ description: 'the group type (0-4) whose properties type=group lists; required with it' })),
  search: Type.Optional(Type.String({ description: 'case-insensitive text in the property name' })),
  event_names: Type.Optional(
    Type.String({ description: 'JSON list of event names, e.g. ["$pageview"]: fills is_seen_on_filtered_events (type=event only)' }),
  ),
  filter_by_event_names: Type.Optional(Type.String({ description: 'true: only properties seen on the events in event_names' })),
  exclude_core_properties: Type.Optional(Type.String({ description: "true: leave out PostHog's own properties (names starting with $); event properties only" })),
  exclude_hidden: Type.Optional(Type.String({ description: 'true: leave out hidden definitions' })),
  is_numerical: Type.Optional(Type.String({ description: 'true: only numerical properties (typed Numeric by a person, or all values numbers)' })),
  properties: Type.Optional(Type.String({ description: 'comma-separated exact names' })),
  is_feature_flag: Type.Optional(Type.String({ description: 'true: only $feature/ properties; false: none of them' })),
});

export const EventDefinition = Type.Object({
  id: Type.String({ format: 'uuid', description: 'stable: derived from the project and the name' }),
  name: Type.String(),
  owner: Nullable(UserBasic),
  description: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time', description: 'time of the earliest stored event of this name' }),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
  updated_by: Nullable(UserBasic),
  last_seen_at: Type.String({ format: 'date-time', description: 'time of the latest stored event of this name' }),
  verified: Type.Boolean(),
  verified_at: Nullable(Type.String({ format: 'date-time' })),
  verified_by: Nullable(UserBasic),
  hidden: Type.Boolean(),
  is_action: Type.Boolean(),
  post_to_slack: Type.Boolean(),
  default_columns: Type.Array(Type.String()),
  tags: Type.Array(Type.String()),
  volume_30_day: Nullable(Type.Integer({ description: 'stored events of this name in the last 30 days' })),
  query_usage_30_day: Nullable(Type.Integer()),
});

export const PropertyDefinition = Type.Object({
  id: Type.String({ format: 'uuid', description: 'stable: derived from the project, the type and the name' }),
  name: Type.String(),
  description: Nullable(Type.String()),
  is_numerical: Type.Boolean(),
  property_type: Nullable(
    Type.Union([Type.Literal('Numeric'), Type.Literal('Boolean'), Type.Literal('String'), Type.Literal('DateTime'), Type.Literal('Duration')], {
      description: 'the type a person set, else from the values seen; null when unknown (mixed kinds, objects, only nulls)',
    }),
  ),
  tags: Type.Array(Type.String()),
  is_seen_on_filtered_events: Nullable(Type.Boolean()),
  updated_at: Nullable(Type.String({ format: 'date-time' })),
  updated_by: Nullable(UserBasic),
  verified: Type.Boolean(),
  verified_at: Nullable(Type.String({ format: 'date-time' })),
  verified_by: Nullable(UserBasic),
  hidden: Type.Boolean(),
});
