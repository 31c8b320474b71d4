// Invites to an organization, and accepting one: the invitee opens /signup/<invite id>, sets a name
// and a password, and is signed in as a new member (PostHog's InviteSignupViewset).
import { randomBytes, randomUUID } from 'node:crypto';
import { NotFoundError, PermissionDeniedError, ValidationError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { InviteRow } from '../../storage/meta/repositories/invites.js';
import type { AccessResolver } from '../access.js';
import { checkPasswordStrength, hashPassword } from '../auth/passwords.js';
import { MembershipLevel, type Principal } from '../auth/principal.js';
import type { NewSession, SessionService } from '../auth/sessions.js';
import { nowIso } from '../tokens.js';
import { checkLevel } from './levels.js';
import { inviteView, isInviteExpired, maskEmailAddress, userBasicView } from './views.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Any member may invite and invites stay until used or deleted: an organization's are bounded. */
export const MAX_INVITES_PER_ORGANIZATION = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface InviteInput {
  target_email?: unknown;
  first_name?: unknown;
  level?: unknown;
  message?: unknown;
  /** PostHog's: the new invite takes the highest level of the email's pending (unexpired) invites. */
  combine_pending_invites?: unknown;
}

function optionalText(value: unknown, attr: string, max: number): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new ValidationError('Not a valid string.', attr, 'invalid');
  if (value.length > max) throw new ValidationError(`Ensure this field has no more than ${max} characters.`, attr, 'max_length');
  return value.trim();
}

/** Emails are kept lower-case, as sign-in looks them up. */
function targetEmail(value: unknown): string {
  if (value === undefined || value === null || value === '') throw new ValidationError('This field is required.', 'target_email', 'required');
  if (typeof value !== 'string' || !EMAIL.test(value.trim()) || value.length > 254) {
    throw new ValidationError('Enter a valid email address.', 'target_email', 'invalid');
  }
  return value.trim().toLowerCase();
}

export class InvitesService {
  constructor(
    private readonly repositories: Repositories,
    private readonly access: AccessResolver,
    private readonly sessions: SessionService,
  ) {}

  async list(principal: Principal, organizationParam: string) {
    const organization = await this.access.organization(principal, organizationParam);
    // An invite's id is its signup link: a member sees only invites at or below their own level,
    // or they could sign up as the admin someone else was invited to be.
    const invites = (await this.repositories.invites.list(organization.id)).filter((invite) => invite.level <= organization.membership_level);
    return this.views(organization.id, invites);
  }

  async create(principal: Principal, organizationParam: string, input: InviteInput) {
    const organization = await this.access.organization(principal, organizationParam);
    const [invite] = await this.insertAll(principal, organization, [input]);
    return (await this.views(organization.id, [invite!]))[0]!;
  }

  /** PostHog's bulk: at most 20, all made or none. */
  async createMany(principal: Principal, organizationParam: string, inputs: unknown) {
    const organization = await this.access.organization(principal, organizationParam);
    if (!Array.isArray(inputs)) throw new ValidationError('This endpoint needs an array of data for bulk invite creation.', null);
    if (inputs.length > 20) throw new ValidationError('A maximum of 20 invites can be sent in a single request.', null, 'max_length');
    const made = await this.insertAll(principal, organization, inputs.map((i) => (i && typeof i === 'object' ? i : {}) as InviteInput));
    return this.views(organization.id, made);
  }

  private async insertAll(principal: Principal, organization: { id: string; membership_level: number }, inputs: InviteInput[]): Promise<InviteRow[]> {
    const invites = inputs.map((input) => this.newInvite(principal, organization, input));
    await this.repositories.transaction(async (repos) => {
      for (const invite of invites) {
        if (await repos.members.isMemberByEmail(organization.id, invite.target_email)) {
          throw new ValidationError('A user with this email address already belongs to the organization.', null);
        }
        if (inputs[invites.indexOf(invite)]!.combine_pending_invites === true) {
          const pending = (await repos.invites.list(organization.id)).filter((i) => i.target_email === invite.target_email && !isInviteExpired(i));
          invite.level = Math.max(invite.level, ...pending.map((i) => i.level));
        }
        // A new invite replaces the email's earlier ones, as PostHog's does.
        await repos.invites.deleteForEmail(organization.id, invite.target_email);
        await repos.invites.insert(invite);
      }
      // Counted after the new ones replaced their emails' old ones; past the budget none is kept.
      if ((await repos.invites.list(organization.id)).length > MAX_INVITES_PER_ORGANIZATION) {
        throw new ValidationError(`An organization can have at most ${MAX_INVITES_PER_ORGANIZATION} invites. Delete some before inviting more.`, null, 'max_length');
      }
    });
    return invites;
  }

  private newInvite(principal: Principal, organization: { id: string; membership_level: number }, input: InviteInput): InviteRow {
    const email = targetEmail(input.target_email);
    const level = input.level === undefined ? MembershipLevel.member : checkLevel(input.level);
    if (level > organization.membership_level) {
      throw new PermissionDeniedError('You cannot invite a user with a higher permission level than your own.');
    }
    const now = nowIso();
    return {
      id: randomUUID(),
      organization_id: organization.id,
      target_email: email,
      first_name: optionalText(input.first_name, 'first_name', 30),
      level,
      message: optionalText(input.message, 'message', 10_000) || null,
      created_by: principal.userId,
      created_at: now,
      updated_at: now,
    };
  }

  /** Admins and owners only (PostHog's OrganizationAdminWritePermissions). */
  async delete(principal: Principal, organizationParam: string, id: string): Promise<void> {
    const organization = await this.access.organization(principal, organizationParam);
    if (organization.membership_level < MembershipLevel.admin) throw new PermissionDeniedError('Your organization access level is insufficient.');
    if (!UUID.test(id) || !(await this.repositories.invites.delete(organization.id, id.toLowerCase()))) throw new NotFoundError();
  }

  /** What the signup page shows before the invitee commits (PostHog's GET /api/signup/<id>/). */
  async preview(inviteId: string) {
    const { invite, organizationName } = await this.usable(inviteId);
    return { id: invite.id, target_email: maskEmailAddress(invite.target_email), first_name: invite.first_name, organization_name: organizationName };
  }

  /** Makes the invitee's account and membership, uses the invite up and signs them in. */
  async accept(inviteId: string, input: { first_name?: unknown; password?: unknown }): Promise<{ user: ReturnType<typeof userBasicView>; session: NewSession }> {
    for (const attr of ['first_name', 'password'] as const) {
      if (typeof input[attr] !== 'string' || input[attr] === '') throw new ValidationError('This field is required.', attr, 'required');
    }
    const firstName = optionalText(input.first_name, 'first_name', 128);
    const password = input.password as string;
    checkPasswordStrength(password);
    const { invite } = await this.usable(inviteId);
    const passwordHash = await hashPassword(password);
    const user = await this.repositories.transaction(async (repos) => {
      if (await repos.users.findByEmail(invite.target_email)) {
        throw new ValidationError(`There already exists an account with email address ${invite.target_email}. Please log in instead.`, null, 'account_exists');
      }
      const now = nowIso();
      const created = await repos.users.insert({
        uuid: randomUUID(),
        distinct_id: randomBytes(24).toString('base64url'),
        first_name: firstName,
        last_name: '',
        email: invite.target_email,
        is_email_verified: 0,
        hedgehog_config: null,
        current_organization_id: invite.organization_id,
        current_project_id: (await repos.projects.listBasicInOrganization(invite.organization_id))[0]?.id ?? null,
        created_at: now,
        password_hash: passwordHash,
      });
      await repos.members.add(invite.organization_id, created.id, invite.level, now);
      await repos.invites.deleteForEmail(invite.organization_id, invite.target_email);
      return created;
    });
    return { user: userBasicView(user), session: await this.sessions.startSession(user.id) };
  }

  /** A signed-in user accepts an invite sent to their own email: they join the organization. */
  async acceptAsUser(inviteId: string, userId: number): Promise<ReturnType<typeof userBasicView>> {
    const { invite } = await this.usable(inviteId);
    const user = await this.repositories.users.findById(userId);
    if (!user) throw new NotFoundError();
    if (user.email !== invite.target_email) throw new ValidationError('This invite is intended for another email address.', null, 'invalid_recipient');
    await this.repositories.transaction(async (repos) => {
      if (await repos.members.findByUserId(invite.organization_id, user.id)) {
        throw new ValidationError('You already are a member of this organization.', null, 'user_already_member');
      }
      await repos.members.add(invite.organization_id, user.id, invite.level, nowIso());
      const firstProject = (await repos.projects.listBasicInOrganization(invite.organization_id))[0]?.id ?? null;
      await repos.users.setCurrent(user.id, invite.organization_id, firstProject);
      await repos.invites.deleteForEmail(invite.organization_id, invite.target_email);
    });
    return userBasicView(user);
  }

  /** The invite and its organization's name, or PostHog's 400 for an unknown or expired one. */
  private async usable(inviteId: string): Promise<{ invite: InviteRow; organizationName: string }> {
    const invite = UUID.test(inviteId) ? await this.repositories.invites.find(inviteId.toLowerCase()) : undefined;
    const organization = invite && (await this.repositories.organizations.find(invite.organization_id));
    if (!invite || !organization) throw new ValidationError('The provided invite ID is not valid.', null);
    if (isInviteExpired(invite)) throw new ValidationError('This invite has expired. Please ask your admin for a new one.', null, 'expired');
    return { invite, organizationName: organization.name };
  }

  private async views(organizationId: string, invites: InviteRow[]) {
    const creatorIds = invites.map((i) => i.created_by).filter((id): id is number => id !== null);
    const creators = new Map((await this.repositories.users.findMembers(organizationId, creatorIds)).map((u) => [u.id, u]));
    const now = Date.now();
    return invites.map((invite) => inviteView(invite, (invite.created_by !== null && creators.get(invite.created_by)) || null, now));
  }
}
