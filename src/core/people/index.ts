// People and access (members, invites, personal API keys, the user's own account), built over the
// services the app already has: the access resolver is stateless, so one more instance reads the
// same memberships.
import { PermissionDeniedError } from '../../errors.js';
import type { MemberOrganization } from '../../storage/meta/repositories/organizations.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import { AccessResolver } from '../access.js';
import type { KeyAuthenticator } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import type { SessionService } from '../auth/sessions.js';
import { AccountSettingsService } from './account.js';
import { InvitesService } from './invites.js';
import { MembersService } from './members.js';
import { PersonalKeysService } from './personal-keys.js';

export interface PeopleServices {
  readonly members: MembersService;
  readonly invites: InvitesService;
  readonly personalKeys: PersonalKeysService;
  readonly account: AccountSettingsService;
}

interface Base {
  readonly repositories: Repositories;
  readonly sessions: SessionService;
  readonly authenticator: KeyAuthenticator;
}

const built = new WeakMap<Base, PeopleServices>();

/**
 * Members and invites are organization views: a key limited to projects may not use them at all
 * (PostHog's APIScopePermission), or a key for one project could manage the people of every
 * organization its user belongs to.
 */
class OrganizationViewAccess extends AccessResolver {
  override async organization(principal: Principal, idParam: string): Promise<MemberOrganization> {
    if (principal.scopedTeams) throw new PermissionDeniedError('API key with scoped projects are only supported on project-based views.');
    return super.organization(principal, idParam);
  }
}

export function peopleServices(base: Base): PeopleServices {
  let people = built.get(base);
  if (!people) {
    const { repositories } = base;
    const access = new OrganizationViewAccess(repositories.organizations, repositories.projects, repositories.users);
    people = {
      members: new MembersService(repositories, access),
      invites: new InvitesService(repositories, access, base.sessions),
      personalKeys: new PersonalKeysService(repositories, base.authenticator),
      account: new AccountSettingsService(repositories),
    };
    built.set(base, people);
  }
  return people;
}
