// Events, persons (with distinct-id mappings and merge overrides), groups and group types.
import { TABLES, type Ddl } from '../tables.js';
import type { EventStoreMigration } from './index.js';

function eventsTable(d: Ddl): string[] {
  const local = d.storageName(TABLES.events);
  return [
    `CREATE TABLE IF NOT EXISTS ${d.db}.${local}${d.onCluster} (
      uuid UUID,
      team_id UInt64,
      event String,
      distinct_id String,
      person_id UUID,
      properties String,
      timestamp DateTime64(6, 'UTC'),
      created_at DateTime64(6, 'UTC'),
      \`$session_id\` String,
      \`$group_0\` String,
      \`$group_1\` String,
      \`$group_2\` String,
      \`$group_3\` String,
      \`$group_4\` String,
      elements_chain String,
      historical_migration Bool
    )
    ENGINE = ${d.replacing(TABLES.events)}
    PARTITION BY toYYYYMM(timestamp)
    ORDER BY (team_id, toDate(timestamp), event, cityHash64(distinct_id), cityHash64(uuid))`,
    ...optional(d.distributedFront(TABLES.events, 'cityHash64(distinct_id)')),
  ];
}

/** Every stored (team, uuid), kept by a materialized view so an insert can refuse repeats cheaply. */
function eventUuidsTable(d: Ddl): string[] {
  const local = d.storageName(TABLES.eventUuids);
  const eventsLocal = d.storageName(TABLES.events);
  return [
    `CREATE TABLE IF NOT EXISTS ${d.db}.${local}${d.onCluster} (
      team_id UInt64,
      uuid UUID,
      distinct_id String
    )
    ENGINE = ${d.replacing(TABLES.eventUuids)}
    ORDER BY (team_id, uuid)`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS ${d.db}.${local}_mv${d.onCluster} TO ${d.db}.${local}
      AS SELECT team_id, uuid, distinct_id FROM ${d.db}.${eventsLocal}`,
    ...optional(d.distributedFront(TABLES.eventUuids, 'cityHash64(distinct_id)')),
  ];
}

function personTables(d: Ddl): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${d.db}.${TABLES.persons}${d.onCluster} (
      id UUID,
      team_id UInt64,
      properties String,
      is_identified Bool,
      created_at DateTime64(3, 'UTC'),
      version UInt64,
      is_deleted Bool
    )
    ENGINE = ${d.replacing(TABLES.persons, 'version')}
    ORDER BY (team_id, id)`,
    // The current person of each distinct id: the row with the highest version wins.
    distinctIdTable(d, TABLES.personDistinctIds),
    // Only distinct ids whose person changed after events were stored (merges): queries join this
    // small table to count events sent before a merge under the surviving person.
    distinctIdTable(d, TABLES.personDistinctIdOverrides),
  ];
}

function distinctIdTable(d: Ddl, table: string): string {
  return `CREATE TABLE IF NOT EXISTS ${d.db}.${table}${d.onCluster} (
      team_id UInt64,
      distinct_id String,
      person_id UUID,
      version UInt64,
      is_deleted Bool
    )
    ENGINE = ${d.replacing(table, 'version')}
    ORDER BY (team_id, distinct_id)`;
}

function groupTables(d: Ddl): string[] {
  return [
    `CREATE TABLE IF NOT EXISTS ${d.db}.${TABLES.groups}${d.onCluster} (
      team_id UInt64,
      group_type_index UInt8,
      group_key String,
      properties String,
      created_at DateTime64(3, 'UTC'),
      version UInt64
    )
    ENGINE = ${d.replacing(TABLES.groups, 'version')}
    ORDER BY (team_id, group_type_index, group_key)`,
    `CREATE TABLE IF NOT EXISTS ${d.db}.${TABLES.groupTypes}${d.onCluster} (
      team_id UInt64,
      group_type String,
      group_type_index UInt8,
      created_at DateTime64(3, 'UTC')
    )
    ENGINE = ${d.replacing(TABLES.groupTypes)}
    ORDER BY (team_id, group_type)`,
  ];
}

function optional(statement: string | null): string[] {
  return statement ? [statement] : [];
}

export const eventsPersonsGroups: EventStoreMigration = {
  version: 1,
  name: 'events_persons_groups',
  statements: (d) => [...eventsTable(d), ...eventUuidsTable(d), ...personTables(d), ...groupTables(d)],
};
