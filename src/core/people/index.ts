// People and access (members, invites, personal API keys, the user's own account), built over the
// services the app already has: the access resolver is stateless, so one more instance reads the
// same memberships.
import type { Repositories } from '../../storage/meta/repositories/index.js';
import { AccessResolver } from '../access.js';
import type { KeyAuthenticator } from '../auth/authenticator.js';
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

export function peopleServices(base: Base): PeopleServices {
  let people = built.get(base);
  if (!people) {
    const { repositories } = base;
    const access = new AccessResolver(repositories.organizations, repositories.projects, repositories.users);
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
