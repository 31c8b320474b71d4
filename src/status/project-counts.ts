// Events and persons per project, straight from the event store (`hoglet status`, and the running
// server's /_status/projects when it owns the store). Persons count as queries see them: each
// person's newest version, deleted ones left out.
import type { EventStore } from '../storage/events/event-store.js';
import { TABLES } from '../storage/events/tables.js';

export interface ProjectCounts {
  id: number;
  events: number;
  persons: number;
}

export async function countsPerProject(store: EventStore): Promise<ProjectCounts[]> {
  const db = store.layout.database;
  const [events, persons] = [
    await store.query<{ team_id: string; n: string }>(`SELECT team_id, count() AS n FROM ${db}.${TABLES.events} GROUP BY team_id`),
    await store.query<{ team_id: string; n: string }>(
      `SELECT team_id, count() AS n FROM (
         SELECT team_id, id, argMax(is_deleted, version) AS deleted FROM ${db}.${TABLES.persons} GROUP BY team_id, id
       ) WHERE NOT deleted GROUP BY team_id`,
    ),
  ];
  const byId = new Map<number, ProjectCounts>();
  const entry = (teamId: string) => {
    const id = Number(teamId);
    let counts = byId.get(id);
    if (!counts) byId.set(id, (counts = { id, events: 0, persons: 0 }));
    return counts;
  };
  for (const row of events) entry(row.team_id).events = Number(row.n);
  for (const row of persons) entry(row.team_id).persons = Number(row.n);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
