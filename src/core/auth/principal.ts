// Who is calling. A user acts through a personal API key (with that key's scopes and ceilings) or
// through a signed-in browser session (with the user's own memberships and no scopes); anyone
// holding a sharing token may read what it shares and nothing else.

interface UserPrincipalFields {
  readonly userId: number;
  /** Organizations the caller is limited to; null means every organization of the user. */
  readonly scopedOrganizations: readonly string[] | null;
  /** Projects the caller is limited to; null means every project the user can see. */
  readonly scopedTeams: readonly number[] | null;
}

/** A user acting through one personal API key, with that key's ceilings. */
export interface KeyPrincipal extends UserPrincipalFields {
  readonly kind: 'key';
  readonly keyId: string;
  readonly scopes: readonly string[];
}

/** A user signed in to the web app: their memberships, no scopes, no ceilings. */
export interface SessionPrincipal extends UserPrincipalFields {
  readonly kind: 'session';
  /** The stored (hashed) id of the session, to sign it out. */
  readonly sessionHash: string;
  /** What a write must echo in `X-CSRFToken`. */
  readonly csrfToken: string;
  readonly scopedOrganizations: null;
  readonly scopedTeams: null;
}

/** A user, by whichever way they authenticated: what every service takes. */
export type Principal = KeyPrincipal | SessionPrincipal;

/** Someone holding a sharing token: the handler that knows what the token opens checks it. */
export interface SharingAccess {
  readonly kind: 'sharing';
  readonly token: string;
}

/** A server holding a project's secret key (`phs_`): it may read that project's flag definitions only. */
export interface ProjectSecretAccess {
  readonly kind: 'project_secret';
  readonly projectId: number;
}

/** Whoever a request was let in as. */
export type Caller = Principal | SharingAccess | ProjectSecretAccess;

export const MembershipLevel = { member: 1, admin: 8, owner: 15 } as const;
