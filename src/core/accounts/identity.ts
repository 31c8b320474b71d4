// What PostHog clients ask first: who am I, which organizations, which key.
import { NotFoundError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { MemberOrganization } from '../../storage/meta/repositories/organizations.js';
import type { CreatorColumns, UserRow } from '../../storage/meta/repositories/users.js';
import type { AccessResolver } from '../access.js';
import type { Principal } from '../auth/principal.js';
import { basicProjectView } from '../projects/view.js';

/** The user fields PostHog's user object shows (created_by, last_modified_by, @me). */
export type UserViewFields = Pick<UserRow, 'id' | 'uuid' | 'distinct_id' | 'first_name' | 'last_name' | 'email' | 'is_email_verified' | 'hedgehog_config'>;

export function userView(user: UserViewFields) {
  return {
    id: user.id,
    uuid: user.uuid,
    distinct_id: user.distinct_id,
    first_name: user.first_name,
    last_name: user.last_name,
    email: user.email,
    is_email_verified: user.is_email_verified === 1,
    hedgehog_config: user.hedgehog_config === null ? null : JSON.parse(user.hedgehog_config),
  };
}

export type UserView = ReturnType<typeof userView>;

/** PostHog's `created_by` from a row that joined its creator; null when there is none. */
export function creatorView(row: CreatorColumns): UserView | null {
  if (row.creator_id === null) return null;
  return userView({
    id: row.creator_id,
    uuid: row.creator_uuid!,
    distinct_id: row.creator_distinct_id!,
    first_name: row.creator_first_name!,
    last_name: row.creator_last_name!,
    email: row.creator_email!,
    is_email_verified: row.creator_is_email_verified!,
    hedgehog_config: row.creator_hedgehog_config,
  });
}

function basicOrganizationView(org: MemberOrganization) {
  return {
    id: org.id,
    name: org.name,
    slug: org.slug,
    logo_media_id: null,
    membership_level: org.membership_level,
    members_can_use_personal_api_keys: true,
    is_active: true,
    is_not_active_reason: null,
    is_pending_deletion: false,
  };
}

export class IdentityService {
  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
  ) {}

  async organizationView(org: MemberOrganization) {
    const [projects, memberCount] = await Promise.all([
      this.repositories.projects.listBasicInOrganization(org.id),
      this.repositories.organizations.memberCount(org.id),
    ]);
    return {
      id: org.id,
      name: org.name,
      slug: org.slug,
      logo_media_id: null,
      created_at: org.created_at,
      updated_at: org.updated_at,
      membership_level: org.membership_level,
      plugins_access_level: 0,
      teams: projects.map(basicProjectView),
      projects: projects.map((p) => ({ id: p.id, organization_id: p.organization_id, name: p.name })),
      available_product_features: [],
      is_member_join_email_enabled: true,
      metadata: {},
      customer_id: null,
      enforce_2fa: null,
      members_can_invite: true,
      members_can_use_personal_api_keys: true,
      allow_publicly_shared_resources: true,
      member_count: memberCount,
    };
  }

  async listOrganizations(principal: Principal, page: { limit: number; offset: number }) {
    const { count, rows } = await this.repositories.organizations.listForMember(
      principal.userId,
      principal.scopedOrganizations,
      page,
    );
    return { count, results: await Promise.all(rows.map((org) => this.organizationView(org))) };
  }

  async organization(principal: Principal, idParam: string) {
    return this.organizationView(await this.access.organization(principal, idParam));
  }

  async me(principal: Principal) {
    const user = await this.repositories.users.findById(principal.userId);
    if (!user) throw new NotFoundError();
    const { rows: organizations } = await this.repositories.organizations.listForMember(
      user.id,
      principal.scopedOrganizations,
      { limit: 1000, offset: 0 },
    );
    const current = organizations.find((o) => o.id === user.current_organization_id) ?? organizations[0] ?? null;
    const team =
      user.current_project_id === null
        ? null
        : await this.access.project(principal, String(user.current_project_id)).catch(() => null);
    return {
      ...userView(user),
      date_joined: user.created_at,
      pending_email: null,
      notification_settings: {},
      anonymize_data: false,
      toolbar_mode: null,
      has_password: user.password_hash !== null,
      is_staff: false,
      is_impersonated: false,
      is_2fa_enabled: false,
      has_social_auth: false,
      has_sso_enforcement: false,
      theme_mode: null,
      role_at_organization: null,
      team: team && basicProjectView(team),
      organization: current && (await this.organizationView(current)),
      organizations: organizations.map(basicOrganizationView),
    };
  }

  async currentKey(principal: Principal) {
    if (principal.kind !== 'key') throw new NotFoundError('Not signed in with a personal API key.');
    const keys = await this.repositories.apiKeys.listForUser(principal.userId);
    const key = keys.find((k) => k.id === principal.keyId);
    if (!key) throw new NotFoundError();
    return {
      id: key.id,
      label: key.label,
      value: null,
      mask_value: key.mask_value,
      created_at: key.created_at,
      last_used_at: key.last_used_at,
      last_rolled_at: key.last_rolled_at ?? null,
      user_id: key.user_id,
      scopes: key.scopes,
      scoped_teams: key.scoped_teams ?? [],
      scoped_organizations: key.scoped_organizations ?? [],
    };
  }
}
