// Builds the ingestion path (event writer over a real event store) without HTTP, and reads back
// what was stored, for tests of persons, groups and de-duplication.
import type { CapturedEvent } from '../../src/core/capture/types.js';
import type { EventStore } from '../../src/storage/events/event-store.js';
import { eventsWithResolvedPersons } from '../../src/storage/events/person-overrides.js';
import { uuidv7 } from '../../src/core/tokens.js';

let clock = Date.parse('2024-05-01T10:00:00Z') * 1000;

/** A normalised event; each call is one millisecond after the previous one. */
export function capturedEvent(event: string, distinctId: string, properties: Record<string, unknown> = {}): CapturedEvent {
  clock += 1000;
  return { uuid: uuidv7(), event, distinctId, properties, timestampUs: clock, historicalMigration: false };
}

export interface StoredPerson {
  id: string;
  properties: Record<string, unknown>;
  is_identified: boolean;
  distinct_ids: string[];
}

/** Live persons of a project with their distinct ids, as queries will see them. */
export async function storedPersons(store: EventStore, teamId: number): Promise<StoredPerson[]> {
  const db = store.layout.database;
  const rows = await store.query<{ id: string; properties: string; is_identified: boolean; distinct_ids: string[] }>(
    `SELECT toString(p.id) AS id, p.properties, p.is_identified, d.distinct_ids
     FROM (
       SELECT id, argMax(properties, version) AS properties, argMax(is_identified, version) AS is_identified,
              argMax(is_deleted, version) AS deleted
       FROM ${db}.persons WHERE team_id = {team:UInt64} GROUP BY id HAVING NOT deleted
     ) AS p
     LEFT JOIN (
       SELECT person_id, arraySort(groupArray(distinct_id)) AS distinct_ids FROM (
         SELECT distinct_id, argMax(person_id, version) AS person_id FROM ${db}.person_distinct_ids
         WHERE team_id = {team:UInt64} GROUP BY distinct_id
       ) GROUP BY person_id
     ) AS d ON d.person_id = p.id
     ORDER BY id`,
    { team: teamId },
  );
  return rows.map((r) => ({ ...r, properties: JSON.parse(r.properties) as Record<string, unknown> }));
}

/** Events and unique persons, counted the way insights count them. */
export async function eventCounts(store: EventStore, teamId: number): Promise<{ events: number; persons: number }> {
  const [row] = await store.query<{ events: string; persons: string }>(
    `SELECT count() AS events, uniqExact(person_id) AS persons FROM (${eventsWithResolvedPersons(store.layout.database)})`,
    { team: teamId },
  );
  return { events: Number(row!.events), persons: Number(row!.persons) };
}

export async function storedEvents(store: EventStore, teamId: number) {
  const rows = await store.query<{ uuid: string; event: string; distinct_id: string; person_id: string; properties: string; timestamp: string }>(
    `SELECT toString(uuid) AS uuid, event, distinct_id, toString(person_id) AS person_id, properties, toString(timestamp) AS timestamp
     FROM (${eventsWithResolvedPersons(store.layout.database)}) ORDER BY timestamp, uuid`,
    { team: teamId },
  );
  return rows.map((r) => ({ ...r, properties: JSON.parse(r.properties) as Record<string, unknown> }));
}
