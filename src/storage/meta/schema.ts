// Row types of the metadata store, shared by SQLite and PostgreSQL. Both engines store the same
// column types: timestamps as ISO-8601 UTC text, JSON as text, booleans as 0/1 integers, so one
// repository code path serves both.
import type { Generated } from 'kysely';

export interface OrganizationsTable {
  id: string;
  name: string;
  slug: string;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  uuid: string;
  distinct_id: string;
  first_name: string;
  last_name: string;
  email: string;
  is_email_verified: number;
  hedgehog_config: string | null;
  current_organization_id: string | null;
  current_project_id: number | null;
  created_at: string;
}

export interface MembershipsTable {
  id: Generated<number>;
  organization_id: string;
  user_id: number;
  level: number;
  created_at: string;
}

export interface PersonalApiKeysTable {
  id: string;
  user_id: number;
  label: string;
  secure_value: string;
  mask_value: string;
  scopes: string;
  scoped_organizations: string | null;
  scoped_teams: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface ProjectsTable {
  id: Generated<number>;
  uuid: string;
  organization_id: string;
  name: string;
  api_token: string;
  /** JSON object of every other project setting; absent keys read as the catalogue default. */
  settings: string;
  created_at: string;
  updated_at: string;
}

export interface ActivityLogTable {
  id: string;
  organization_id: string;
  project_id: number | null;
  user_id: number | null;
  is_system: number;
  scope: string;
  item_id: string;
  activity: string;
  detail: string;
  created_at: string;
}

export interface ActionsTable {
  id: Generated<number>;
  /** The project (PostHog's team) the action belongs to. */
  team_id: number;
  name: string;
  description: string;
  /** JSON array of tag names. */
  tags: string;
  post_to_slack: number;
  slack_message_format: string;
  /** JSON array of steps, each with every field of PostHog's ActionStepJSON. */
  steps: string;
  deleted: number;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  last_calculated_at: string | null;
  pinned_at: string | null;
  /** JSON; unused until actions are compiled (PostHog keeps HogVM bytecode here). */
  bytecode: string | null;
  bytecode_error: string | null;
}

export interface CountersTable {
  name: string;
  value: number;
}

export interface MetaSchema {
  organizations: OrganizationsTable;
  users: UsersTable;
  organization_memberships: MembershipsTable;
  personal_api_keys: PersonalApiKeysTable;
  projects: ProjectsTable;
  activity_log: ActivityLogTable;
  actions: ActionsTable;
  counters: CountersTable;
}
