// Finds the organization or project a request names, as the calling principal may see it.
// Anything outside the user's memberships is reported as not found, never as forbidden, so that
// existence does not leak; a key's own narrower ceilings give PostHog's 403s.
import { NotFoundError, PermissionDeniedError } from '../errors.js';
import type { MemberOrganization, OrganizationsRepository } from '../storage/meta/repositories/organizations.js';
import type { ProjectsRepository, VisibleProjectRow } from '../storage/meta/repositories/projects.js';
import type { UsersRepository } from '../storage/meta/repositories/users.js';
import type { Principal } from './auth/principal.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PROJECT_ID = /^[1-9]\d{0,9}$/;
export const CURRENT = '@current';

export class AccessResolver {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly projects: ProjectsRepository,
    private readonly users: UsersRepository,
  ) {}

  /**
   * `@current` is the user's current organization (PostHog's `current_organization`, set by
   * PATCH /api/users/@me/) while they are still its member and the key reaches it; else their
   * first organization the key reaches.
   */
  async organization(principal: Principal, idParam: string): Promise<MemberOrganization> {
    if (idParam === CURRENT) {
      const current = (await this.users.findById(principal.userId))?.current_organization_id ?? null;
      if (current !== null && (!principal.scopedOrganizations || principal.scopedOrganizations.includes(current))) {
        const organization = await this.organizations.findForMember(principal.userId, current);
        if (organization) return organization;
      }
      const { rows } = await this.organizations.listForMember(principal.userId, principal.scopedOrganizations, {
        limit: 1,
        offset: 0,
      });
      if (!rows[0]) throw new NotFoundError();
      return rows[0];
    }
    const organizationId = parseOrganizationId(idParam);
    if (organizationId === null) throw new NotFoundError();
    const organization = await this.organizations.findForMember(principal.userId, organizationId);
    if (!organization) throw new NotFoundError();
    assertOrganizationInScope(principal, organization.id);
    return organization;
  }

  /**
   * The project named by the path, optionally required to lie in the organization named by the
   * path too. `@current` is the user's current project (the one last created or bootstrapped).
   * One query: the membership join proves the user may see both the project and its organization.
   */
  async project(principal: Principal, idParam: string, organizationParam?: string): Promise<VisibleProjectRow> {
    const organizationId =
      organizationParam === undefined
        ? undefined
        : organizationParam === CURRENT
          ? (await this.organization(principal, CURRENT)).id
          : parseOrganizationId(organizationParam);
    if (organizationId === null) throw new NotFoundError();
    const projectId = idParam === CURRENT ? await this.currentProjectId(principal) : parseProjectId(idParam);
    if (projectId === null) throw new NotFoundError();
    const project = await this.projects.findVisible(principal.userId, projectId, organizationId);
    if (!project) throw new NotFoundError();
    assertOrganizationInScope(principal, project.organization_id);
    if (principal.scopedTeams && !principal.scopedTeams.includes(project.id)) {
      throw new PermissionDeniedError(`API key does not have access to the requested project: ID ${project.id}.`);
    }
    return project;
  }

  private async currentProjectId(principal: Principal): Promise<number | null> {
    const user = await this.users.findById(principal.userId);
    if (user?.current_project_id != null) return user.current_project_id;
    if (principal.scopedTeams) return principal.scopedTeams[0] ?? null;
    const organization = await this.organization(principal, CURRENT).catch(() => null);
    if (!organization) return null;
    const [first] = await this.projects.listBasicInOrganization(organization.id);
    return first?.id ?? null;
  }
}

/** An organization id is a UUID; anything else names nothing. */
export function parseOrganizationId(text: string): string | null {
  return UUID.test(text) ? text.toLowerCase() : null;
}

export function parseProjectId(text: string): number | null {
  return PROJECT_ID.test(text) && Number(text) <= 2 ** 31 - 1 ? Number(text) : null;
}

function assertOrganizationInScope(principal: Principal, organizationId: string): void {
  if (principal.scopedOrganizations && !principal.scopedOrganizations.includes(organizationId)) {
    throw new PermissionDeniedError(`API key does not have access to the requested organization: ID ${organizationId}`);
  }
}
