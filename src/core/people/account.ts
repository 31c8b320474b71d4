// The signed-in user's own account: PATCH /api/users/@me/ (names, password with PostHog's checks,
// current organization and project) and signing out of every browser.
import { ThrottledError, ValidationError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import { parseOrganizationId, parseProjectId } from '../access.js';
import { LoginThrottle } from '../auth/login-throttle.js';
import { checkPasswordStrength, hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from '../auth/passwords.js';
import type { Principal } from '../auth/principal.js';

export interface MeInput {
  first_name?: unknown;
  last_name?: unknown;
  password?: unknown;
  current_password?: unknown;
  set_current_organization?: unknown;
  set_current_team?: unknown;
}

function name(value: unknown, attr: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new ValidationError('Not a valid string.', attr, 'invalid');
  if (value.length > 150) throw new ValidationError('Ensure this field has no more than 150 characters.', attr, 'max_length');
  return value.trim();
}

/** DRF's CharField: a string, or a number it reads as one. */
function idText(value: unknown, attr: string): string {
  if (typeof value !== 'string' && typeof value !== 'number') throw new ValidationError('Not a valid string.', attr, 'invalid');
  return String(value);
}

/**
 * PostHog's UserAuthenticationThrottle (5 a minute): a stolen session or a user:write key must not
 * guess the current password. Counted per user; a wrong guess counts, a right one is forgiven.
 */
const PASSWORD_GUESS_LIMITS = { perAccount: 5, perAddress: Number.MAX_SAFE_INTEGER, windowMs: 60_000, maxLockMs: 60 * 60_000 };

const doesNotExist = (value: unknown, attr: string) => new ValidationError(`Object with id=${String(value)} does not exist.`, attr, 'does_not_exist');

export class AccountSettingsService {
  private readonly passwordGuesses = new LoginThrottle(PASSWORD_GUESS_LIMITS);

  constructor(private readonly repositories: Repositories) {}

  /** Applies the change; the caller answers the user as GET @me shows it. */
  async update(principal: Principal, input: MeInput): Promise<void> {
    const names = { first_name: name(input.first_name, 'first_name'), last_name: name(input.last_name, 'last_name') };
    const password = await this.newPassword(principal.userId, input.current_password, input.password);
    const current = await this.current(principal, input.set_current_organization, input.set_current_team);
    const passwordHash = password === null ? null : await hashPassword(password);
    await this.repositories.transaction(async (repos) => {
      await repos.users.setNames(principal.userId, Object.fromEntries(Object.entries(names).filter(([, v]) => v !== undefined)));
      if (current) await repos.users.setCurrent(principal.userId, current.organizationId, current.projectId);
      if (passwordHash !== null) {
        await repos.users.setPasswordHash(principal.userId, passwordHash);
        // Django's update_session_auth_hash: this browser stays signed in, every other one is out.
        if (principal.kind === 'session') await repos.userSessions.deleteForUserExcept(principal.userId, principal.sessionHash);
        else await repos.userSessions.deleteForUser(principal.userId);
      }
    });
  }

  /** Ends every session of the user, this one included. */
  async signOutEverywhere(principal: Principal): Promise<void> {
    await this.repositories.userSessions.deleteForUser(principal.userId);
  }

  /** PostHog's validate_password_change: the current password is asked for when one is set. */
  private async newPassword(userId: number, current: unknown, password: unknown): Promise<string | null> {
    if (password === undefined || password === null || password === '') return null;
    if (typeof password !== 'string') throw new ValidationError('Not a valid string.', 'password', 'invalid');
    const user = await this.repositories.users.findById(userId);
    if (user?.password_hash) {
      if (typeof current !== 'string' || current === '') {
        throw new ValidationError('This field is required when updating your password.', 'current_password', 'required');
      }
      const reservation = this.passwordGuesses.reserve(`user:${userId}`, `user:${userId}`);
      if (reservation.locked) throw new ThrottledError(`Request was throttled. Expected available in ${reservation.minutes * 60} seconds.`);
      if (current.length > MAX_PASSWORD_LENGTH || !(await verifyPassword(current, user.password_hash))) {
        throw new ValidationError('Your current password is incorrect.', 'current_password', 'incorrect_password');
      }
      reservation.attempt.succeeded();
    }
    checkPasswordStrength(password);
    return password;
  }

  /** PostHog's set_current_organization / set_current_team: the project defaults to the organization's first. */
  private async current(principal: Principal, organizationValue: unknown, teamValue: unknown): Promise<{ organizationId: string; projectId: number | null } | null> {
    let project: { id: number; organization_id: string } | undefined;
    if (teamValue !== undefined && teamValue !== null) {
      const id = parseProjectId(idText(teamValue, 'set_current_team'));
      project = id === null ? undefined : await this.repositories.projects.findVisible(principal.userId, id);
      if (!project || (principal.scopedTeams && !principal.scopedTeams.includes(project.id))) throw doesNotExist(teamValue, 'set_current_team');
    }
    if (organizationValue !== undefined && organizationValue !== null) {
      const id = parseOrganizationId(idText(organizationValue, 'set_current_organization'));
      const organization = id === null ? undefined : await this.repositories.organizations.findForMember(principal.userId, id);
      if (!organization) throw doesNotExist(organizationValue, 'set_current_organization');
      if (project && project.organization_id !== organization.id) {
        throw new ValidationError('Team must belong to the same organization in set_current_organization.', 'set_current_team');
      }
      const projectId = project?.id ?? (await this.repositories.projects.listBasicInOrganization(organization.id))[0]?.id ?? null;
      return { organizationId: organization.id, projectId };
    }
    return project ? { organizationId: project.organization_id, projectId: project.id } : null;
  }
}
