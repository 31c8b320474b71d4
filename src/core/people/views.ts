// PostHog's serializers of members, invites and personal API keys.
import type { PersonalApiKey } from '../../storage/meta/repositories/api-keys.js';
import type { InviteRow } from '../../storage/meta/repositories/invites.js';
import type { MemberRow } from '../../storage/meta/repositories/members.js';
import { userView, type UserViewFields } from '../accounts/identity.js';

/** PostHog's invites stop working after this many days (INVITE_DAYS_VALIDITY). */
export const INVITE_DAYS_VALIDITY = 3;

export function isInviteExpired(invite: Pick<InviteRow, 'created_at'>, now = Date.now()): boolean {
  return Date.parse(invite.created_at) + INVITE_DAYS_VALIDITY * 24 * 60 * 60_000 < now;
}

/** UserBasicSerializer, with the role PostHog adds (Hoglet keeps none). */
export const userBasicView = (user: UserViewFields) => ({ ...userView(user), role_at_organization: null });

/** OrganizationMemberSerializer. */
export function memberView(row: MemberRow) {
  return {
    // Memberships added before migration 0012 filled the column have their integer id.
    id: row.membership_uuid ?? String(row.membership_id),
    user: userBasicView({ ...row, id: row.user_id, uuid: row.user_uuid }),
    level: row.level,
    joined_at: row.joined_at,
    updated_at: row.updated_at ?? row.joined_at,
    is_2fa_enabled: false,
    has_social_auth: false,
    last_login: row.last_login,
  };
}

/** OrganizationInviteSerializer (no e-mail is sent: emailing_attempt_made stays false). */
export function inviteView(invite: InviteRow, createdBy: UserViewFields | null, now = Date.now()) {
  return {
    id: invite.id,
    target_email: invite.target_email,
    first_name: invite.first_name,
    emailing_attempt_made: false,
    level: invite.level,
    is_expired: isInviteExpired(invite, now),
    created_by: createdBy && userBasicView(createdBy),
    created_at: invite.created_at,
    updated_at: invite.updated_at,
    message: invite.message,
    private_project_access: [],
  };
}

/** PersonalAPIKeySerializer: the value only in the answer that made it. */
export function personalKeyView(key: PersonalApiKey, value: string | null = null) {
  return {
    id: key.id,
    label: key.label,
    value,
    mask_value: key.mask_value,
    created_at: key.created_at,
    last_used_at: key.last_used_at,
    user_id: key.user_id,
    scopes: key.scopes.length ? key.scopes : ['*'],
    scoped_teams: key.scoped_teams ?? [],
    scoped_organizations: key.scoped_organizations ?? [],
    last_rolled_at: key.last_rolled_at ?? null,
  };
}

/** PostHog's mask_email_address: the first and last character of the name part. */
export function maskEmailAddress(email: string): string {
  const at = email.indexOf('@');
  if (at <= 1) return `*${email.slice(Math.max(at, 0))}`;
  return `${email[0]}${'*'.repeat(at - 2)}${email.slice(at - 1)}`;
}
