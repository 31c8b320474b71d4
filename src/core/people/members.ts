// The members of an organization: list, change a level, remove (or leave). Access is checked by
// membership on every request, so a removed member's sessions and keys lose the organization at once.
import { NotFoundError, ValidationError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { MemberRow } from '../../storage/meta/repositories/members.js';
import type { AccessResolver } from '../access.js';
import { detail, diffChanges, recordActivity } from '../activity.js';
import { MembershipLevel, type Principal } from '../auth/principal.js';
import { nowIso } from '../tokens.js';
import { assertMayEditMember, checkLevel } from './levels.js';
import { memberView } from './views.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface MemberListQuery {
  email?: string | undefined;
  /** PostHog's allowed orderings; any other value falls back to the default (newest first). */
  order?: string | undefined;
}

export class MembersService {
  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
  ) {}

  async list(principal: Principal, organizationParam: string, query: MemberListQuery) {
    const organization = await this.access.organization(principal, organizationParam);
    // No email holds a NUL, and PostgreSQL refuses one in a parameter.
    if (query.email?.includes('\u0000')) return [];
    const rows = await this.repositories.members.list(organization.id, { email: query.email, oldestFirst: query.order === 'joined_at' });
    return rows.map(memberView);
  }

  async update(principal: Principal, organizationParam: string, userUuid: string, body: { level?: unknown }) {
    const organization = await this.access.organization(principal, organizationParam);
    const target = await this.target(principal, organization.id, userUuid);
    const level = body.level === undefined ? undefined : checkLevel(body.level);
    const actors = this.actors(principal, organization.membership_level, target);
    // PostHog checks the object permission (no level) before the serializer checks the new level.
    assertMayEditMember(actors);
    assertMayEditMember(actors, level);
    if (level === undefined || level === target.level) return memberView(target);
    await this.repositories.transaction(async (repos) => {
      await repos.members.lockOrganization(organization.id);
      if (target.level === MembershipLevel.owner && (await repos.members.countOwners(organization.id, MembershipLevel.owner)) <= 1) {
        throw new ValidationError('The organization must keep at least one owner.', 'level');
      }
      await repos.members.setLevel(target.membership_id, level, nowIso());
      await this.log(repos, principal.userId, organization.id, target, 'updated', diffChanges('OrganizationMembership', ['level'], { level: target.level }, { level }));
    });
    return memberView((await this.repositories.members.findByUserId(organization.id, target.user_id))!);
  }

  async remove(principal: Principal, organizationParam: string, userUuid: string): Promise<void> {
    const organization = await this.access.organization(principal, organizationParam);
    const target = await this.target(principal, organization.id, userUuid);
    assertMayEditMember(this.actors(principal, organization.membership_level, target));
    await this.repositories.transaction(async (repos) => {
      await repos.members.lockOrganization(organization.id);
      if (target.level === MembershipLevel.owner && (await repos.members.countOwners(organization.id, MembershipLevel.owner)) <= 1) {
        throw new ValidationError("Cannot remove the organization's last owner. Make another member owner first.", null);
      }
      await repos.members.remove(organization.id, target.user_id);
      await this.log(repos, principal.userId, organization.id, target, 'deleted', null);
    });
  }

  /**
   * The member's personal API keys that reach this organization (scoped to it or to one of its
   * projects, or not scoped at all), as PostHog shows them before a removal.
   */
  async scopedApiKeys(principal: Principal, organizationParam: string, userUuid: string) {
    const organization = await this.access.organization(principal, organizationParam);
    const target = await this.target(principal, organization.id, userUuid);
    const projectIds = new Set((await this.repositories.projects.listBasicInOrganization(organization.id)).map((p) => p.id));
    const keys = (await this.repositories.apiKeys.listForUser(target.user_id)).filter((key) => {
      const orgs = key.scoped_organizations ?? [];
      const teams = key.scoped_teams ?? [];
      return orgs.includes(organization.id) || teams.some((t) => projectIds.has(t)) || (orgs.length === 0 && teams.length === 0);
    });
    const weekAgo = Date.now() - 7 * 24 * 60 * 60_000;
    return {
      has_keys: keys.length > 0,
      has_keys_active_last_week: keys.some((k) => k.last_used_at !== null && Date.parse(k.last_used_at) >= weekAgo),
      keys: keys.map((k) => ({ name: k.label, last_used_at: k.last_used_at })),
    };
  }

  /** `@me` names the caller, as in PostHog. */
  private async target(principal: Principal, organizationId: string, userUuid: string): Promise<MemberRow> {
    const row =
      userUuid === '@me'
        ? await this.repositories.members.findByUserId(organizationId, principal.userId)
        : UUID.test(userUuid)
          ? await this.repositories.members.findByUserUuid(organizationId, userUuid.toLowerCase())
          : undefined;
    if (!row) throw new NotFoundError();
    return row;
  }

  private actors(principal: Principal, requesterLevel: number, target: MemberRow) {
    return { requesterUserId: principal.userId, requesterLevel, targetUserId: target.user_id, targetLevel: target.level };
  }

  private log(repos: Repositories, userId: number, organizationId: string, target: MemberRow, activity: string, changes: ReturnType<typeof diffChanges> | null) {
    return recordActivity(repos.activityLog, {
      organizationId,
      projectId: null,
      userId,
      scope: 'OrganizationMembership',
      itemId: target.membership_uuid ?? String(target.membership_id),
      activity,
      detail: detail(target.email, changes),
    });
  }
}
