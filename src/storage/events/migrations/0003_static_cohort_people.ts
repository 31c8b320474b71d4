// The persons of static cohorts (PostHog's person_static_cohort): one row per (cohort, person) and
// change; the latest version says whether the person is in. Kept beside the persons so a query
// reads membership in the same statement as the events. Synced to disk like capture's tables:
// an answered "added" survives a power cut.
import { TABLES, type Ddl } from '../tables.js';
import type { EventStoreMigration } from './index.js';

export const staticCohortPeople: EventStoreMigration = {
  version: 3,
  name: 'static_cohort_people',
  statements: (d: Ddl) => [
    `CREATE TABLE IF NOT EXISTS ${d.db}.${TABLES.staticCohortPeople}${d.onCluster} (
      team_id UInt64,
      cohort_id UInt64,
      person_id UUID,
      version UInt64,
      is_deleted Bool
    )
    ENGINE = ${d.replacing(TABLES.staticCohortPeople, 'version')}
    ORDER BY (team_id, cohort_id, person_id)
    SETTINGS fsync_after_insert = 1, fsync_part_directory = 1`,
  ],
};
