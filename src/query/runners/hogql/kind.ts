// HogQL as a kind: HogQLQuery nodes (SQL in PostHog's dialect), saved as insights PostHog calls
// "SQL" insights. No legacy filters; any write to the project can change its answer.
import type { HogQLQuery } from '../../nodes/schema.js';
import { fail } from '../../nodes/read-json.js';
import type { QueryKind } from '../kind.js';
import { hogqlTable } from './csv.js';
import { readHogQLQuery } from './read.js';
import { runHogQL } from './runner.js';

export const hogqlKind: QueryKind<HogQLQuery> = {
  kind: 'HogQLQuery',
  legacyInsight: 'SQL',
  legacyEndpoint: null,
  read: readHogQLQuery,
  fromFilters: () => fail('filters', 'SQL insights have no legacy filters; send a HogQLQuery.'),
  actionIds: () => [],
  cachePolicy: () => ({ interval: 'day', readsFromStart: true }),
  run: runHogQL,
  csv: hogqlTable,
  safetyShapes: {
    'hogql with a value placeholder': (v) => ({ kind: 'HogQLQuery', query: 'select event, count() from events where event = {v} or properties.$browser = {v} group by event', values: { v } }),
    'hogql with property filters through {filters}': (v) => ({
      kind: 'HogQLQuery',
      query: 'select count() from events where {filters}',
      filters: { properties: [{ key: v, value: v, operator: 'icontains', type: 'event' }, { key: v, value: v, operator: 'exact', type: 'person' }] },
    }),
    'hogql with the text as a string literal': (v) => ({ kind: 'HogQLQuery', query: `select '${v.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}' as x, event from events limit 1` }),
  },
};
