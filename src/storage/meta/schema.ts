// Row types of the metadata store, shared by SQLite and PostgreSQL. Both engines store the same
// column types: timestamps as ISO-8601 UTC text, JSON as text, booleans as 0/1 integers, so one
// repository code path serves both.
import type { ColumnType, Generated } from 'kysely';

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
  /** scrypt hash of the web app password (core/auth/passwords.ts); null: the user cannot sign in. */
  password_hash: string | null;
  /** The last web app sign-in (PostHog's last_login); null before the first. */
  last_login: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CaptureWriterLeasesTable {
  /** Which event data set (core/capture/writer-lease.ts). */
  store_key: string;
  /** The process holding it (a random id per process). */
  owner: string;
  heartbeat_at: string;
}

export interface UserSessionsTable {
  token_hash: string;
  user_id: number;
  csrf_token: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
}

export interface MembershipsTable {
  id: Generated<number>;
  organization_id: string;
  user_id: number;
  level: number;
  created_at: string;
  /** PostHog's membership id (a UUID); null only before migration 0012 filled it. */
  uuid: ColumnType<string | null, string | null | undefined, string | null>;
  updated_at: ColumnType<string | null, string | null | undefined, string | null>;
}

/** An invitation to join an organization (PostHog's OrganizationInvite); used up when accepted. */
export interface OrganizationInvitesTable {
  id: string;
  organization_id: string;
  target_email: string;
  first_name: string;
  /** The membership level the invitee gets (1 member, 8 admin, 15 owner). */
  level: number;
  message: string | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
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
  last_rolled_at: ColumnType<string | null, string | null | undefined, string | null>;
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
  /** The secret keys (`phs_`) for local evaluation: null until the first rotation. */
  secret_api_token: ColumnType<string | null, string | null | undefined, string | null>;
  secret_api_token_backup: ColumnType<string | null, string | null | undefined, string | null>;
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

export interface AnnotationsTable {
  id: Generated<number>;
  organization_id: string;
  /** The project it was made in (an organization-scope one shows in every project of the organization). */
  team_id: number;
  content: string | null;
  /** ISO 8601 in UTC with milliseconds. */
  date_marker: string | null;
  /** USR or GIT. */
  creation_type: string;
  /** dashboard_item (an insight), dashboard, project or organization. */
  scope: string;
  /** The insight's id. */
  dashboard_item: number | null;
  dashboard_id: number | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  deleted: number;
}

export interface CohortsTable {
  id: Generated<number>;
  team_id: number;
  name: string;
  description: string;
  /** JSON: PostHog's `filters` ({"properties": group}), or null for a static cohort. */
  filters: string | null;
  /** JSON: the legacy `groups` list, kept as sent ([] when none). */
  groups: string;
  is_static: number;
  deleted: number;
  is_calculating: number;
  /** Persons in the cohort at the last calculation; null before the first. */
  count: number | null;
  last_calculation: string | null;
  /** How many calculations in a row failed (PostHog's errors_calculating). */
  errors_calculating: number;
  last_error: string | null;
  /** Bumped by every change of definition or membership: what cached results and calculations key on. */
  version: number;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface FeatureFlagsTable {
  id: Generated<number>;
  team_id: number;
  /** Unique per project (a soft-deleted flag's row goes when its key is taken again). */
  key: string;
  /** PostHog's `name`: the flag's description. */
  name: string;
  /** JSON: PostHog's `filters` (groups, multivariate, payloads as JSON strings, ...). */
  filters: string;
  active: number;
  deleted: number;
  ensure_experience_continuity: number;
  /** 1 on create, +1 on every change: what a PATCH's `version` is checked against. */
  version: number;
  evaluation_runtime: string;
  bucketing_identifier: string;
  /** JSON arrays of tag names. */
  tags: string;
  evaluation_tags: string;
  is_remote_configuration: number;
  has_encrypted_payloads: number;
  has_enriched_analytics: number;
  /** JSON, or null. */
  rollback_conditions: string | null;
  performed_rollback: number | null;
  created_by: number | null;
  last_modified_by: number | null;
  created_at: string;
  updated_at: string;
  last_called_at: string | null;
}

/** Per project: bumped by every change of its flags, so caches of its definitions can tell. */
export interface FeatureFlagEpochsTable {
  team_id: number;
  epoch: number;
}

/** Experience continuity: the identifier a person is bucketed by for a flag key. */
export interface FeatureFlagHashKeyOverridesTable {
  team_id: number;
  /** The person's uuid. */
  person_id: string;
  feature_flag_key: string;
  hash_key: string;
}

export interface CountersTable {
  name: string;
  value: number;
}

export interface InsightsTable {
  id: Generated<number>;
  team_id: number;
  /** 8 random characters of [A-Za-z0-9] unless the client chose one; unique per project. */
  short_id: string;
  name: string | null;
  derived_name: string | null;
  description: string | null;
  /** JSON: the legacy filters dict, kept as sent ({} when none). */
  filters: string;
  /** JSON: the query node, kept as sent, or null. */
  query: string | null;
  order: number | null;
  deleted: number;
  saved: number;
  favorited: number;
  is_sample: number;
  /** JSON array of normalised tag names. */
  tags: string;
  created_by: number | null;
  last_modified_by: number | null;
  created_at: string;
  updated_at: string;
  last_modified_at: string;
}

export interface DashboardsTable {
  id: Generated<number>;
  team_id: number;
  name: string | null;
  description: string;
  pinned: number;
  /** JSON: {date_from, date_to, properties} applied to every tile. */
  filters: string;
  tags: string;
  restriction_level: number;
  deleted: number;
  created_by: number | null;
  created_at: string;
  last_accessed_at: string | null;
}

export interface DashboardTilesTable {
  id: Generated<number>;
  dashboard_id: number;
  insight_id: number;
  layouts: string;
  color: string | null;
  /** PostHog's nullable flag: null and 0 both mean the tile is shown. */
  deleted: number | null;
  created_at: string;
}

export interface SharingConfigurationsTable {
  id: Generated<number>;
  team_id: number;
  insight_id: number | null;
  dashboard_id: number | null;
  /** A shared session recording: its session id (migration 0017). */
  recording_id: string | null;
  enabled: number;
  access_token: string;
  created_at: string;
}

export interface InsightViewsTable {
  team_id: number;
  user_id: number;
  insight_id: number;
  last_viewed_at: string;
}

export interface QueryCacheTable {
  cache_key: string;
  team_id: number;
  /** JSON of the calculated response (results, columns, timings, ...; never the SQL that ran). */
  response: string;
  last_refresh: string;
  computed_at: string;
  range_from: string | null;
  range_to: string | null;
  /** UTF-8 bytes of `response`: what the cache's budget counts. */
  response_bytes: number;
}

export interface QueryStatusTable {
  team_id: number;
  id: string;
  insight_id: number | null;
  dashboard_id: number | null;
  complete: number;
  error: number;
  error_message: string | null;
  /** JSON of the finished response. */
  results: string | null;
  start_time: string;
  end_time: string | null;
  expiration_time: string;
  task_id: string;
  /** The process running it (random per process start). */
  owner: string | null;
  /** Refreshed by that process while it runs; a stale one means the process is gone. */
  heartbeat_at: string | null;
}

export interface EventWriteMarksTable {
  team_id: number;
  /** UTC day, yyyy-mm-dd. */
  day: string;
  written_at: string;
}

export interface EventDefinitionsTable {
  team_id: number;
  /** The name-based id the definitions API gives the event (core/definitions/ids.ts). */
  id: string;
  name: string;
  description: string | null;
  /** JSON list of tag names. */
  tags: string;
  verified: number;
  verified_at: string | null;
  verified_by: number | null;
  hidden: number;
  updated_at: string | null;
  updated_by: number | null;
  /** Set by DELETE: the name is listed again once an event of it arrives after this time. */
  deleted_at: string | null;
}

export interface PropertyDefinitionsTable {
  team_id: number;
  id: string;
  name: string;
  /** event, person or group:<index>. */
  owner: string;
  description: string | null;
  tags: string;
  /** Set by a person (PostHog's types, Duration included); null: typed from the values seen. */
  property_type: string | null;
  verified: number;
  verified_at: string | null;
  verified_by: number | null;
  hidden: number;
  updated_at: string | null;
  updated_by: number | null;
}

export interface EventRetentionRunsTable {
  team_id: number;
  /** ISO 8601 UTC: events before it were removed. */
  cutoff: string;
  ran_at: string;
  events_removed: number;
}

export interface MetaSchema {
  organizations: OrganizationsTable;
  users: UsersTable;
  user_sessions: UserSessionsTable;
  capture_writer_leases: CaptureWriterLeasesTable;
  organization_memberships: MembershipsTable;
  organization_invites: OrganizationInvitesTable;
  personal_api_keys: PersonalApiKeysTable;
  projects: ProjectsTable;
  event_retention_runs: EventRetentionRunsTable;
  activity_log: ActivityLogTable;
  actions: ActionsTable;
  annotations: AnnotationsTable;
  cohorts: CohortsTable;
  feature_flags: FeatureFlagsTable;
  feature_flag_epochs: FeatureFlagEpochsTable;
  feature_flag_hash_key_overrides: FeatureFlagHashKeyOverridesTable;
  counters: CountersTable;
  insights: InsightsTable;
  dashboards: DashboardsTable;
  dashboard_tiles: DashboardTilesTable;
  sharing_configurations: SharingConfigurationsTable;
  insight_views: InsightViewsTable;
  query_cache: QueryCacheTable;
  query_status: QueryStatusTable;
  event_write_marks: EventWriteMarksTable;
  event_definitions: EventDefinitionsTable;
  property_definitions: PropertyDefinitionsTable;
}
