// EventsQuery as a kind: the events table of PostHog's activity page (often inside a DataTableNode),
// cached and refreshed like the insights. No legacy filters.
import type { EventsQuery } from '../../nodes/schema.js';
import { fail } from '../../nodes/read-json.js';
import { hogqlTable } from '../hogql/csv.js';
import type { QueryKind } from '../kind.js';
import { readEventsQuery } from './read.js';
import { runEvents } from './runner.js';

export const eventsKind: QueryKind<EventsQuery> = {
  kind: 'EventsQuery',
  legacyInsight: 'EVENTS',
  legacyEndpoint: null,
  read: readEventsQuery,
  fromFilters: () => fail('filters', 'Events tables have no legacy filters; send an EventsQuery.'),
  actionIds: (query) => (query.actionId === null ? [] : [query.actionId]),
  // The newest events matter most: freshness follows hours, and nothing before the range is read.
  cachePolicy: () => ({ interval: 'hour', readsFromStart: false }),
  run: runEvents,
  csv: hogqlTable,
  safetyShapes: {
    'events with a property filter and an event name': (v) => ({
      kind: 'EventsQuery',
      select: ['*', 'event', 'person_display_name -- Person', 'properties.$browser'],
      event: v,
      properties: [{ key: v, value: v, operator: 'exact', type: 'event' }, { key: v, value: v, operator: 'icontains', type: 'person' }],
      after: 'all',
    }),
    'events with a where string holding the text': (v) => ({
      kind: 'EventsQuery',
      select: ['event', 'count()'],
      where: [`properties.$browser = '${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`],
      after: 'all',
    }),
  },
};
