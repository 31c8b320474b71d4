// Members, invites, personal API keys and the signup page: PostHog's serializers' fields.
import { Type } from 'typebox';
import { AnyJson, Nullable } from './common.js';
import { UserBasic } from './identity.js';

const UserWithRole = Type.Object({ ...UserBasic.properties, role_at_organization: Nullable(Type.String()) });

export const Member = Type.Object({
  id: Type.String({ description: "the membership's id" }),
  user: UserWithRole,
  level: Type.Integer({ description: '1 member, 8 admin, 15 owner' }),
  joined_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  is_2fa_enabled: Type.Boolean(),
  has_social_auth: Type.Boolean(),
  last_login: Nullable(Type.String({ format: 'date-time' })),
});

export const Invite = Type.Object({
  id: Type.String({ format: 'uuid', description: 'the invite link is <site>/signup/<id>' }),
  target_email: Type.String(),
  first_name: Type.String(),
  emailing_attempt_made: Type.Boolean(),
  level: Type.Integer(),
  is_expired: Type.Boolean({ description: 'invites expire 3 days after they are made' }),
  created_by: Nullable(UserWithRole),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  message: Nullable(Type.String()),
  private_project_access: Type.Array(AnyJson()),
});

export const InviteBody = Type.Object(
  {
    target_email: Type.Optional(Type.Unknown()),
    first_name: Type.Optional(Type.Unknown()),
    level: Type.Optional(Type.Unknown()),
    message: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);

export const SignupPreview = Type.Object({
  id: Type.String(),
  target_email: Type.String({ description: 'masked' }),
  first_name: Type.String(),
  organization_name: Type.String(),
});

export const SignupBody = Type.Object(
  { first_name: Type.Optional(Type.Unknown()), password: Type.Optional(Type.Unknown()) },
  { additionalProperties: true },
);

export const PersonalKey = Type.Object({
  id: Type.String(),
  label: Type.String(),
  value: Nullable(Type.String({ description: 'only in the answer that created or rolled the key' })),
  mask_value: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  user_id: Type.Integer(),
  scopes: Type.Array(Type.String()),
  scoped_teams: Type.Array(Type.Integer()),
  scoped_organizations: Type.Array(Type.String()),
  last_rolled_at: Nullable(Type.String({ format: 'date-time' })),
});

export const PersonalKeyBody = Type.Object(
  {
    label: Type.Optional(Type.Unknown()),
    scopes: Type.Optional(Type.Unknown()),
    scoped_organizations: Type.Optional(Type.Unknown()),
    scoped_teams: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);

export const MeBody = Type.Object(
  {
    first_name: Type.Optional(Type.Unknown()),
    last_name: Type.Optional(Type.Unknown()),
    password: Type.Optional(Type.Unknown()),
    current_password: Type.Optional(Type.Unknown()),
    set_current_organization: Type.Optional(Type.Unknown()),
    set_current_team: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);
