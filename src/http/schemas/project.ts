// Request and response schemas of the Projects API, derived from the settings catalogue.
import { Type, type TSchema } from 'typebox';
import { PROJECT_SETTINGS, type SettingSpec } from '../../core/projects/settings-catalog.js';
import { AnyJson, Nullable } from './common.js';

function settingWriteSchema(spec: SettingSpec): TSchema {
  const nullable = (schema: TSchema, isNullable: boolean) => (isNullable ? Nullable(schema) : schema);
  switch (spec.kind) {
    case 'string':
      return nullable(Type.String({ maxLength: spec.maxLength }), spec.nullable);
    case 'boolean':
      return nullable(Type.Boolean(), spec.nullable);
    case 'json':
      return AnyJson('structured value');
    case 'stringList':
      return nullable(Type.Array(Nullable(Type.String({ maxLength: spec.itemMaxLength })), { maxItems: 1000 }), spec.nullable);
    case 'integer':
      return nullable(Type.Integer({ minimum: spec.min, maximum: spec.max }), spec.nullable);
    case 'choice':
      return Nullable(Type.Integer({ description: `one of ${spec.choices.join(', ')}` }));
    case 'sampleRate':
      return AnyJson('decimal from 0 to 1 with two decimals, as a number or a string such as "0.40"');
    case 'timezone':
      return Type.String({ description: 'an IANA time zone name', maxLength: 240 });
  }
}

function settingReadSchema(spec: SettingSpec): TSchema {
  switch (spec.kind) {
    case 'sampleRate':
      return Nullable(Type.String({ description: 'decimal as a string, e.g. "0.40"' }));
    case 'stringList':
      return Nullable(Type.Array(Type.String()));
    case 'choice':
      return Nullable(Type.Integer());
    default:
      return settingWriteSchema(spec);
  }
}

const settingEntries = Object.entries(PROJECT_SETTINGS) as Array<[string, SettingSpec]>;

/** The writable fields; anything else in a body (read-only fields included) is dropped. */
export const ProjectWriteBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    ...Object.fromEntries(settingEntries.map(([name, spec]) => [name, Type.Optional(settingWriteSchema(spec))])),
  },
  { additionalProperties: false },
);

/** A stored setting: documented as its type, typed unknown as the views read settings (like ProjectFull's). */
const setting = (schema: TSchema) => Type.Unsafe<unknown>(schema);

/** The project list's reduced form (the spec's 11 fields). */
export const ProjectReduced = Type.Object({
  id: Type.Integer(),
  uuid: Type.String({ format: 'uuid' }),
  organization: Type.String({ format: 'uuid' }),
  api_token: Type.String(),
  name: Type.String(),
  completed_snippet_onboarding: setting(Type.Boolean()),
  has_completed_onboarding_for: AnyJson(),
  ingested_event: Type.Boolean(),
  is_demo: setting(Type.Boolean()),
  timezone: setting(Type.String()),
  access_control: setting(Type.Boolean()),
});

const { id, uuid, organization, ...afterOrganization } = ProjectReduced.properties;

/** PostHog's TeamBasicSerializer: the reduced form plus project_id (@me and organizations). */
export const ProjectBasic = Type.Object({ id, uuid, organization, project_id: Type.Integer(), ...afterOrganization });

export const ProjectFull = Type.Object({
  id: Type.Integer(),
  uuid: Type.String({ format: 'uuid' }),
  organization: Type.String({ format: 'uuid' }),
  project_id: Type.Integer(),
  api_token: Type.String(),
  secret_api_token: Nullable(Type.String({ description: 'The secret key (`phs_`) for local evaluation; null until the first rotation' })),
  secret_api_token_backup: Nullable(Type.String({ description: 'The previous secret key, still valid until deleted or rotated out' })),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  effective_membership_level: Nullable(Type.Integer({ description: '1 member, 8 admin, 15 owner' })),
  has_group_types: Type.Boolean(),
  group_types: Type.Array(AnyJson()),
  live_events_token: Nullable(Type.String()),
  ingested_event: Type.Boolean(),
  person_on_events_querying_enabled: Type.Boolean(),
  default_modifiers: AnyJson(),
  is_pending_deletion: Type.Boolean(),
  ...Object.fromEntries(settingEntries.map(([name, spec]) => [name, settingReadSchema(spec)])),
});

export const IsGeneratingDemoData = Type.Object({ is_generating_demo_data: Type.Boolean() });

export const ActivityPage = Type.Object({
  results: Type.Array(
    Type.Object({
      id: Type.String(),
      user: AnyJson('{first_name, email}, or the System actor'),
      activity: Type.String(),
      scope: Type.String(),
      item_id: Type.String(),
      detail: AnyJson('{changes, trigger, name, short_id, type}'),
      created_at: Type.String({ format: 'date-time' }),
      is_system: Type.Boolean(),
      was_impersonated: Type.Boolean(),
    }),
  ),
  next: Nullable(Type.String()),
  previous: Nullable(Type.String()),
  total_count: Type.Integer(),
});
