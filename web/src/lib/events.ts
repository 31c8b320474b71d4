// PostHog's EventsQuery for the activity table, and reading its rows by column name.
import type { PropertyFilter } from './filters';
import type { QueryNode } from '../types';

export const EVENT_COLUMNS = ['*', 'event', 'person_display_name -- Person', 'timestamp'];

export interface EventRow {
  uuid: string;
  event: string;
  timestamp: string;
  distinct_id: string;
  properties: Record<string, unknown>;
  person: { display_name: string; id: string; distinct_id: string } | null;
}

export function eventsQuery(options: { event?: string | null; properties?: PropertyFilter[]; after?: string; personId?: string; limit: number; offset: number }): QueryNode {
  const query: QueryNode = { kind: 'EventsQuery', select: EVENT_COLUMNS, orderBy: ['timestamp DESC'], limit: options.limit, offset: options.offset, after: options.after ?? '-24h' };
  if (options.event) query.event = options.event;
  if (options.properties?.length) query.properties = options.properties;
  if (options.personId) query.personId = options.personId;
  return query;
}

/** Rows of the answer as objects, by the columns it names (the order asked for). */
export function readEvents(answer: { columns?: string[]; results: unknown[][] }): EventRow[] {
  const columns = answer.columns ?? EVENT_COLUMNS;
  const at = (name: string) => columns.indexOf(name);
  const star = at('*');
  const person = columns.findIndex((c) => c.startsWith('person_display_name'));
  return answer.results.map((row) => {
    const e = (row[star] ?? {}) as Record<string, any>;
    return {
      uuid: e.uuid,
      event: e.event,
      timestamp: e.timestamp,
      distinct_id: e.distinct_id,
      properties: e.properties ?? {},
      person: person >= 0 ? (row[person] as EventRow['person']) : null,
    };
  });
}

/** Where the event happened, for the table's third column. */
export const whereOf = (e: EventRow): string => String(e.properties.$current_url ?? e.properties.$screen_name ?? e.properties.$pathname ?? '');
