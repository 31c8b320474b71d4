// The `person` column of an EventsQuery: after the page is read, each distinct id's current person
// (uuid, created_at, properties), looked up in one HogQL query over person_distinct_ids; a distinct
// id with no person is `{distinct_id}` alone, as PostHog answers.
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { selectQueryNode } from '../../hogql/select-list.js';
import { runSelectPage } from '../hogql/run-select.js';

const field = (...chain: string[]) => ({ node: 'Field', chain });

export async function personsOfDistinctIds(distinctIds: readonly string[], context: QueryContext, run: QueryRun): Promise<Map<string, Record<string, unknown>>> {
  const ids = [...new Set(distinctIds)];
  if (ids.length === 0) return new Map();
  const node = selectQueryNode({
    select: [field('distinct_id'), field('person_id'), field('person', 'created_at'), field('person', 'properties')],
    table: 'person_distinct_ids',
    where: [{ node: 'Call', name: 'has', args: [{ node: 'Placeholder', expr: field('ids') }, field('distinct_id')] }],
    having: [],
    groupBy: null,
    orderBy: [],
    limit: ids.length + 1,
    offset: 0,
  });
  const page = await runSelectPage(node, { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, values: { ids } }, run, ids.length);
  return new Map(page.rows.map(([distinctId, uuid, createdAt, properties]) => [
    String(distinctId),
    { uuid, created_at: createdAt, properties: parsedProperties(properties), distinct_id: distinctId },
  ]));
}

function parsedProperties(text: unknown): Record<string, unknown> {
  if (typeof text !== 'string' || text === '') return {};
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return {};
  }
}
