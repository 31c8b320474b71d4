// One line of a PostHog event export (JSONL) as a capture event. Exports carry `set`/`set_once`
// beside the properties and fields capture does not take (team_id, person_id, created_at, ...).
import type { RawEvent } from '../capture/types.js';

export class UnreadableLineError extends Error {}

export function exportLineToEvent(line: string): RawEvent {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new UnreadableLineError('not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new UnreadableLineError('not a JSON object');
  const row = value as Record<string, unknown>;
  const properties = typeof row.properties === 'string' ? parseObject(row.properties) : row.properties;
  const event: RawEvent = {
    properties: typeof properties === 'object' && properties !== null ? { ...(properties as object) } : {},
  };
  // Only fields the line has: a missing one must read as missing, not as blank.
  for (const field of ['event', 'distinct_id', 'timestamp'] as const) if (row[field] !== undefined) event[field] = row[field];
  if (row.uuid !== undefined && row.uuid !== null && row.uuid !== '') event.uuid = row.uuid;
  const props = event.properties as Record<string, unknown>;
  if (isObject(row.set) && props.$set === undefined) props.$set = row.set;
  if (isObject(row.set_once) && props.$set_once === undefined) props.$set_once = row.set_once;
  if (typeof row.elements_chain === 'string' && row.elements_chain !== '' && props.$elements_chain === undefined) {
    props.$elements_chain = row.elements_chain;
  }
  return event;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseObject(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
