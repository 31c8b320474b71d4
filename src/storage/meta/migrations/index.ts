// Versioned migrations, applied in name order at start-up. Never edit a released one; add a new file.
import type { Migration } from 'kysely';
import * as m0001 from './0001_accounts_and_projects.js';
import * as m0002 from './0002_project_token_epoch.js';
import * as m0003 from './0003_actions.js';
import * as m0004 from './0004_insights_dashboards.js';
import * as m0005 from './0005_query_status_heartbeat.js';
import * as m0006 from './0006_passwords_and_sessions.js';
import * as m0007 from './0007_capture_writer_leases.js';
import * as m0008 from './0008_cohorts.js';
import * as m0009 from './0009_query_cache_budget.js';
import * as m0010 from './0010_feature_flags.js';
import * as m0011 from './0011_project_secret_tokens.js';
import * as m0012 from './0012_members_invites_keys.js';
import * as m0013 from './0013_definition_metadata.js';
import * as m0014 from './0014_annotations.js';
import * as m0015 from './0015_dashboard_sharing.js';
import * as m0016 from './0016_event_retention_runs.js';
import * as m0017 from './0017_recording_sharing.js';

export const migrations: Record<string, Migration> = {
  '0001_accounts_and_projects': m0001,
  '0002_project_token_epoch': m0002,
  '0003_actions': m0003,
  '0004_insights_dashboards': m0004,
  '0005_query_status_heartbeat': m0005,
  '0006_passwords_and_sessions': m0006,
  '0007_capture_writer_leases': m0007,
  '0008_cohorts': m0008,
  '0009_query_cache_budget': m0009,
  '0010_feature_flags': m0010,
  '0011_project_secret_tokens': m0011,
  '0012_members_invites_keys': m0012,
  '0013_definition_metadata': m0013,
  '0014_annotations': m0014,
  '0015_dashboard_sharing': m0015,
  '0016_event_retention_runs': m0016,
  '0017_recording_sharing': m0017,
};
