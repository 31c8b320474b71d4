import { Type } from 'typebox';
import { AnyJson, Nullable } from './common.js';
import { ProjectBasic } from './project.js';

export const UserBasic = Type.Object({
  id: Type.Integer(),
  uuid: Type.String({ format: 'uuid' }),
  distinct_id: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.String({ format: 'email' }),
  is_email_verified: Type.Boolean(),
  hedgehog_config: AnyJson(),
});

const OrganizationBasic = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  slug: Type.String(),
  logo_media_id: Nullable(Type.String()),
  membership_level: Type.Integer(),
  members_can_use_personal_api_keys: Type.Boolean(),
  is_active: Type.Boolean(),
  is_not_active_reason: Nullable(Type.String()),
  is_pending_deletion: Type.Boolean(),
});

export const Organization = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  slug: Type.String(),
  logo_media_id: Nullable(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  membership_level: Type.Integer({ description: '1 member, 8 admin, 15 owner' }),
  plugins_access_level: Type.Integer(),
  teams: Type.Array(ProjectBasic),
  projects: Type.Array(Type.Object({ id: Type.Integer(), organization_id: Type.String(), name: Type.String() })),
  available_product_features: Type.Array(AnyJson()),
  is_member_join_email_enabled: Type.Boolean(),
  metadata: AnyJson(),
  customer_id: Nullable(Type.String()),
  enforce_2fa: Nullable(Type.Boolean()),
  members_can_invite: Type.Boolean(),
  members_can_use_personal_api_keys: Type.Boolean(),
  allow_publicly_shared_resources: Type.Boolean(),
  member_count: Type.Integer(),
});

export const Me = Type.Object({
  ...UserBasic.properties,
  date_joined: Type.String({ format: 'date-time' }),
  pending_email: Nullable(Type.String()),
  notification_settings: AnyJson(),
  anonymize_data: Type.Boolean(),
  toolbar_mode: Nullable(Type.String()),
  has_password: Type.Boolean(),
  is_staff: Type.Boolean(),
  is_impersonated: Type.Boolean(),
  is_2fa_enabled: Type.Boolean(),
  has_social_auth: Type.Boolean(),
  has_sso_enforcement: Type.Boolean(),
  theme_mode: Nullable(Type.String()),
  role_at_organization: Nullable(Type.String()),
  team: Nullable(ProjectBasic),
  organization: Nullable(Organization),
  organizations: Type.Array(OrganizationBasic),
});

export const CurrentKey = Type.Object({
  id: Type.String(),
  label: Type.String(),
  value: Nullable(Type.String()),
  mask_value: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  last_rolled_at: Nullable(Type.String({ format: 'date-time' })),
  user_id: Type.Integer(),
  scopes: Type.Array(Type.String()),
  scoped_teams: Type.Array(Type.Integer()),
  scoped_organizations: Type.Array(Type.String()),
});
