// The uuid index (event_uuids) is filled by a materialized view, which ClickHouse writes after the
// events part itself: a process killed between the two leaves stored events missing from the
// index, and a client's retry of that unanswered request would then store them twice. After a
// crash (the previous owner's lock was left behind), the newest events are indexed again; repeats
// in the index are harmless (it is a ReplacingMergeTree and read with DISTINCT).
import type { EventStore } from './event-store.js';
import { sessionEvents, sessionStatesSelect } from './migrations/0004_sessions.js';
import { TABLES } from './tables.js';

/** Flushes run one at a time, so only the last ones before the crash can be half written; this is ample. */
const REPAIR_WINDOW_MINUTES = 10;

export async function repairUuidIndex(store: EventStore): Promise<void> {
  const db = store.layout.database;
  await store.command(
    `INSERT INTO ${db}.${TABLES.eventUuids} (team_id, uuid, distinct_id)
     SELECT team_id, uuid, distinct_id FROM ${db}.${TABLES.events}
     WHERE created_at >= (SELECT max(created_at) FROM ${db}.${TABLES.events}) - INTERVAL ${REPAIR_WINDOW_MINUTES} MINUTE`,
    {},
    { lane: 'ingest' },
  );
}

/**
 * The sessions table is fed by another view of the same insert, so the same crash can leave the
 * newest events out of their sessions (and the replay then skips them as stored). Their states
 * are added again: every session state is idempotent, so events already counted count once.
 */
export async function repairSessions(store: EventStore): Promise<void> {
  const db = store.layout.database;
  const events = `${db}.${TABLES.events}`;
  await store.command(
    `INSERT INTO ${db}.${TABLES.sessions} ${sessionStatesSelect(sessionEvents(events,
      `created_at >= (SELECT max(created_at) FROM ${events}) - INTERVAL ${REPAIR_WINDOW_MINUTES} MINUTE`))}`,
    {},
    { lane: 'ingest' },
  );
}
