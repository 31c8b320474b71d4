// Columns for the event properties most queries read (materialized-properties.ts), computed at
// insert. Parts written before the migration compute them on read until the background
// MATERIALIZE COLUMN mutation has rewritten them: answers are the same either way, and start-up
// does not wait for a rewrite of every part (mutations_sync = 0).
import { MATERIALIZED_EVENT_PROPERTIES, MATERIALIZED_TYPE, materializedColumn } from '../materialized-properties.js';
import { TABLES, type Ddl } from '../tables.js';
import type { EventStoreMigration } from './index.js';

const quoteKey = (key: string) => `'${key.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
const columnOf = (key: string) => `\`${materializedColumn(key)!}\``;

export const materializedProperties: EventStoreMigration = {
  version: 5,
  name: 'materialized_properties',
  statements: (d: Ddl) => {
    const local = `${d.db}.${d.storageName(TABLES.events)}`;
    const statements = MATERIALIZED_EVENT_PROPERTIES.map((key) =>
      `ALTER TABLE ${local}${d.onCluster} ADD COLUMN IF NOT EXISTS ${columnOf(key)} ${MATERIALIZED_TYPE} MATERIALIZED JSONExtract(properties, ${quoteKey(key)}, '${MATERIALIZED_TYPE}')`);
    // On a cluster the Distributed table in front reads the column from the shards' tables.
    if (d.storageName(TABLES.events) !== TABLES.events) {
      statements.push(...MATERIALIZED_EVENT_PROPERTIES.map((key) =>
        `ALTER TABLE ${d.db}.${TABLES.events}${d.onCluster} ADD COLUMN IF NOT EXISTS ${columnOf(key)} ${MATERIALIZED_TYPE}`));
    }
    statements.push(...MATERIALIZED_EVENT_PROPERTIES.map((key) =>
      `ALTER TABLE ${local}${d.onCluster} MATERIALIZE COLUMN ${columnOf(key)} SETTINGS mutations_sync = 0`));
    return statements;
  },
};
