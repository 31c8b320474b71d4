// Persons through PostHog's ActorsQuery (the persons table) and GET …/persons/:id/.
import { api, ApiError } from '../api';
import { runQuery } from './run';

export interface Person {
  id: string;
  uuid?: string;
  name?: string;
  distinct_ids: string[];
  properties: Record<string, unknown>;
  created_at: string;
  is_identified?: boolean;
}

export interface PersonRow {
  id: string;
  name: string;
  created_at: string;
}

export async function searchPersons(project: string, search: string, limit: number, offset: number, signal?: AbortSignal): Promise<{ rows: PersonRow[]; hasMore: boolean }> {
  // `person` brings the distinct ids: the display name falls back to the person's UUID on the
  // server, where PostHog's persons list shows the distinct id instead.
  const query: Record<string, unknown> = { kind: 'ActorsQuery', select: ['person_display_name -- Person', 'id', 'created_at', 'person'], orderBy: ['created_at DESC'], limit, offset };
  if (search) query.search = search;
  const answer = await runQuery<{ results: [{ display_name: string; id: string } | null, string, string, { distinct_ids?: string[] } | null][]; hasMore: boolean }>(project, query, signal);
  const nameOf = (display: { display_name: string } | null, id: string, person: { distinct_ids?: string[] } | null) =>
    display?.display_name && display.display_name !== id ? display.display_name : person?.distinct_ids?.[0] ?? id;
  return {
    rows: answer.results.map(([display, id, created, person]) => ({ id, name: nameOf(display, id, person), created_at: created })),
    hasMore: !!answer.hasMore,
  };
}

/** One person by id; where the server has no person endpoint yet (404), through ActorsQuery. */
export async function getPerson(project: string, id: string): Promise<Person | null> {
  try {
    return await api<Person>(`/api/projects/${project}/persons/${encodeURIComponent(id)}/`);
  } catch (e) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
  const answer = await runQuery<{ results: [Person][] }>(project, { kind: 'ActorsQuery', select: ['person'], search: id, limit: 10 });
  return answer.results.map((r) => r[0]).find((p) => p.id === id) ?? null;
}

/** The name PostHog's app shows: email, name or username, else the first distinct id. */
export function personName(person: Person): string {
  if (person.name) return person.name;
  const p = person.properties ?? {};
  for (const key of ['email', 'Email', '$email', 'name', 'Name', 'username']) if (typeof p[key] === 'string' && p[key]) return p[key] as string;
  return person.distinct_ids?.[0] ?? person.id;
}
