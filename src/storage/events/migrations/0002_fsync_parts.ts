// An acknowledged event must survive the machine losing power, not only the process dying: every
// table capture writes syncs each inserted part's files and its directory to disk before the
// insert returns (MergeTree's `fsync_after_insert`, `fsync_part_directory`; off by default, when a
// part may sit in the page cache after the 200). The group commit writes one part per table per
// flush, so one fsync covers every request of the flush. A replicated cluster adds copies on
// other machines with `insert_quorum` (docs/architecture.md, scale-out).
import { TABLES, type Ddl } from '../tables.js';
import type { EventStoreMigration } from './index.js';

/** The tables an acknowledged request writes (migrations and group types are written elsewhere, rarely). */
const WRITTEN_BY_CAPTURE = [
  TABLES.events, TABLES.eventUuids, TABLES.persons, TABLES.personDistinctIds, TABLES.personDistinctIdOverrides, TABLES.groups, TABLES.groupTypes,
] as const;

export const fsyncParts: EventStoreMigration = {
  version: 2,
  name: 'fsync_parts',
  statements: (d: Ddl) =>
    WRITTEN_BY_CAPTURE.map((table) => `ALTER TABLE ${d.db}.${d.storageName(table)}${d.onCluster} MODIFY SETTING fsync_after_insert = 1, fsync_part_directory = 1`),
};
