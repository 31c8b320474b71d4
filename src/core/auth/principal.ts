/** Who is calling: a user acting through one personal API key, with that key's ceilings. */
export interface Principal {
  readonly userId: number;
  readonly keyId: string;
  readonly scopes: readonly string[];
  /** Organizations the key is limited to; null means every organization of the user. */
  readonly scopedOrganizations: readonly string[] | null;
  /** Projects the key is limited to; null means every project the user can see. */
  readonly scopedTeams: readonly number[] | null;
}

export const MembershipLevel = { member: 1, admin: 8, owner: 15 } as const;
