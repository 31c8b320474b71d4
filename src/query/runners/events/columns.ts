// The columns of an EventsQuery as PostHog reads them: `*` is the event as an object (its
// properties parsed, its elements when autocaptured), `person` the event's person looked up
// after the query, `person_display_name` a {display_name, id, distinct_id} object; anything else
// is a HogQL expression. Labels after `--` name columns on screen and are ignored here.
import type { ProjectSettings } from '../../context.js';
import { chainToElements } from '../../elements-chain.js';
import { DISPLAY_NAME_COLUMN, displayNameExpr, displayNameOrderItem } from '../../hogql/display-name.js';
import { withoutLabel } from '../../hogql/select-list.js';
import { tupleValues, valueReader } from '../hogql/values.js';

/** What `*` reads, in the order PostHog's event objects list their keys (team_id and person_mode are added). */
const STAR_FIELDS = ['uuid', 'event', 'properties', 'timestamp', 'distinct_id', 'elements_chain', 'created_at'] as const;

export type ColumnRole = 'star' | 'person' | 'display name' | 'expression';

export const roleOf = (column: string): ColumnRole => {
  if (column === '*') return 'star';
  const bare = withoutLabel(column);
  return bare === 'person' ? 'person' : bare === DISPLAY_NAME_COLUMN ? 'display name' : 'expression';
};

/** The HogQL text each column runs as. */
export function columnInput(column: string, project: ProjectSettings): string {
  switch (roleOf(column)) {
    case 'star':
      return `tuple(${STAR_FIELDS.join(', ')})`;
    case 'person':
      return 'distinct_id';
    case 'display name':
      return `(${displayNameExpr(project, 'person.properties', 'distinct_id')}, toString(person.id), distinct_id)`;
    case 'expression':
      return column;
  }
}

/** The ORDER BY text of an item (the Person column sorts by the name, then the person id). */
export const orderInput = (item: string, project: ProjectSettings): string =>
  displayNameOrderItem(item, displayNameExpr(project, 'person.properties', 'distinct_id'), 'toString(person.id)');

/** The `*` column's tuple as PostHog's event object. */
export function starObject(value: unknown, project: ProjectSettings): Record<string, unknown> {
  const [uuid, event, properties, timestamp, distinctId, elementsChain, createdAt] = tupleValues(value);
  const time = valueReader(`DateTime64(6, '${project.timezone}')`)!;
  const object: Record<string, unknown> = {
    uuid,
    event,
    properties: parseJson(properties),
    timestamp: time(timestamp),
    team_id: project.id,
    distinct_id: distinctId,
    elements_chain: elementsChain,
    created_at: time(createdAt),
    person_mode: 'full',
  };
  if (typeof elementsChain === 'string' && elementsChain !== '') object.elements = chainToElements(elementsChain);
  return object;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return {};
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** The `person_display_name` column's tuple as PostHog's object. */
export function displayNameObject(value: unknown): Record<string, unknown> {
  const [displayName, id, distinctId] = tupleValues(value);
  return { display_name: displayName, id: String(id), distinct_id: String(distinctId) };
}
