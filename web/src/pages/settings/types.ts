// The people-and-access shapes the settings pages read (PostHog's serializers).
export interface UserBasic {
  id: number;
  uuid: string;
  first_name: string;
  last_name: string;
  email: string;
}

export interface Member {
  id: string;
  user: UserBasic;
  level: number;
  joined_at: string;
  last_login: string | null;
}

export interface Invite {
  id: string;
  target_email: string;
  first_name: string;
  level: number;
  is_expired: boolean;
  created_by: UserBasic | null;
  created_at: string;
}

export interface PersonalKey {
  id: string;
  label: string;
  value: string | null;
  mask_value: string;
  created_at: string;
  last_used_at: string | null;
  last_rolled_at: string | null;
  scopes: string[];
  scoped_teams: number[];
  scoped_organizations: string[];
}

export const LEVELS: [number, string][] = [[1, 'Member'], [8, 'Admin'], [15, 'Owner']];
export const levelName = (level: number) => LEVELS.find(([l]) => l === level)?.[1] ?? String(level);

/** A date and time as the browser's locale writes it; '–' for never. */
export const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'Never');

/** The link an invitee opens (PostHog's /signup/<invite id>). */
export const inviteLink = (id: string) => `${location.origin}/signup/${id}`;
