// Request and response schemas of the feature flags API (PostHog's FeatureFlagSerializer). Bodies
// are loose here: core/flags checks every field with PostHog's messages (a bad `filters` is a 400
// naming `filters`, never an Ajv message).
import { Type } from 'typebox';
import { AnyJson, Nullable } from './common.js';
import { UserBasic } from './identity.js';

export const FeatureFlagWriteBody = Type.Object(
  {
    key: Type.Optional(AnyJson('required on create and PUT: letters, digits, - and _ (up to 400 characters), unique among live flags')),
    name: Type.Optional(AnyJson("the flag's description")),
    filters: Type.Optional(AnyJson('{"groups": [{"properties": [...], "rollout_percentage": 0-100, "variant": null}], "multivariate": {"variants": [...]}, "payloads": {...}, "aggregation_group_type_index": null}')),
    active: Type.Optional(AnyJson('default true')),
    deleted: Type.Optional(AnyJson('true soft-deletes the flag, false restores it')),
    ensure_experience_continuity: Type.Optional(AnyJson('default false')),
    version: Type.Optional(AnyJson('the version the client read: with original_flag, a change to a field someone else changed since is a 409')),
    original_flag: Type.Optional(AnyJson('the flag as the client read it (for the 409 check)')),
    tags: Type.Optional(AnyJson('list of tag names')),
    evaluation_tags: Type.Optional(AnyJson('list of tag names')),
    evaluation_runtime: Type.Optional(AnyJson('server, client or all (default)')),
    bucketing_identifier: Type.Optional(AnyJson('distinct_id (default) or device_id')),
    is_remote_configuration: Type.Optional(AnyJson('default false')),
    has_encrypted_payloads: Type.Optional(AnyJson('only false: Hoglet does not encrypt payloads')),
    has_enriched_analytics: Type.Optional(AnyJson('default false')),
    rollback_conditions: Type.Optional(AnyJson()),
    performed_rollback: Type.Optional(AnyJson()),
  },
  { additionalProperties: true },
);

export const FeatureFlag = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  key: Type.String(),
  filters: AnyJson('the conditions, variants and payloads (payload values are JSON strings)'),
  deleted: Type.Boolean(),
  active: Type.Boolean(),
  created_by: Nullable(UserBasic),
  created_at: Type.String(),
  updated_at: Type.String(),
  version: Type.Integer(),
  last_modified_by: Nullable(UserBasic),
  is_simple_flag: Type.Boolean(),
  rollout_percentage: Nullable(Type.Number()),
  ensure_experience_continuity: Type.Boolean(),
  experiment_set: Type.Array(Type.Integer()),
  surveys: Type.Array(AnyJson()),
  features: Type.Array(AnyJson()),
  rollback_conditions: AnyJson(),
  performed_rollback: Nullable(Type.Boolean()),
  can_edit: Type.Boolean(),
  tags: Type.Array(Type.String()),
  evaluation_tags: Type.Array(Type.String()),
  usage_dashboard: Type.Null(),
  analytics_dashboards: Type.Array(Type.Integer()),
  has_enriched_analytics: Type.Boolean(),
  user_access_level: Type.String(),
  is_remote_configuration: Type.Boolean(),
  has_encrypted_payloads: Type.Boolean(),
  status: Type.String({ description: 'ACTIVE, INACTIVE or DELETED' }),
  evaluation_runtime: Type.String(),
  bucketing_identifier: Type.String(),
  last_called_at: Nullable(Type.String()),
});

export const FeatureFlagListQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: 'page size (default 100)' })),
  offset: Type.Optional(Type.String()),
  search: Type.Optional(Type.String({ description: 'part of the key or the name, any case' })),
  active: Type.Optional(Type.String({ description: 'true or false (STALE is refused: Hoglet does not record evaluations)' })),
  type: Type.Optional(Type.String({ description: 'boolean, multivariant, experiment or remote_config' })),
  created_by_id: Type.Optional(Type.String()),
  evaluation_runtime: Type.Optional(Type.String({ description: 'server, client or all' })),
  tags: Type.Optional(Type.String({ description: 'a JSON list of tag names: flags with any of them' })),
  order: Type.Optional(Type.String({ description: 'key, name, created_at or updated_at, - for descending, comma-separated (default -created_at)' })),
});
