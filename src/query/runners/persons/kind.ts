// The persons listing as a kind: PostHog's ActorsQuery without a source (its persons page, often
// in a DataTableNode) and the older PersonsNode, cached and refreshed like the insights. It has no
// date range, so dashboards leave it as it is.
import type { PersonsListQuery } from '../../nodes/schema.js';
import { fail } from '../../nodes/read-json.js';
import { hogqlTable } from '../hogql/csv.js';
import type { QueryKind } from '../kind.js';
import { readPersonsListQuery } from './read.js';
import { runPersonsList } from './runner.js';

export const personsListKind: QueryKind<PersonsListQuery> = {
  kind: 'ActorsQuery',
  legacyInsight: 'PERSONS',
  legacyEndpoint: null,
  read: readPersonsListQuery,
  fromFilters: () => fail('filters', 'Persons listings have no legacy filters; send an ActorsQuery.'),
  actionIds: () => [],
  ranged: () => null,
  withRanged: (query) => query,
  cachePolicy: () => ({ interval: 'hour', readsFromStart: true }),
  run: runPersonsList,
  csv: hogqlTable,
  safetyShapes: {
    'persons with a search and a person filter': (v) => ({
      kind: 'ActorsQuery',
      search: v,
      properties: [{ key: v, value: v, operator: 'icontains', type: 'person' }],
    }),
  },
};
