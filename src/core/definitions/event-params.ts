// The event definitions list's query parameters, as PostHog's clients send them: search,
// event_type, exclude_hidden, verified, names and ordering.
import { ValidationError } from '../../errors.js';
import type { EventNameOrderKey } from '../../storage/events/definitions-repository.js';
import { booleanParam, namesParam, text } from './property-params.js';
import { searchParam } from './search.js';

export interface EventListParams {
  search: string | null;
  /** event_custom: false (no `$` names); event_posthog: true (only them); event: null. */
  posthogEvents: boolean | null;
  excludeHidden: boolean;
  /** verified=true: only verified; false: only unverified; null: either. */
  verified: boolean | null;
  names: string[] | null;
  order: { key: EventNameOrderKey; descending: boolean }[];
}

const EVENT_TYPES: Record<string, boolean | null> = {
  event: null,
  event_custom: false,
  event_posthog: true,
  // PostHog answers these two with plain event definitions too.
  all: null,
  action_event: null,
};

/** PostHog's ordering fields (its `::date` forms order by the day, here by the time). */
const ORDERING: Record<string, EventNameOrderKey> = {
  name: 'name',
  last_seen_at: 'last_seen',
  'last_seen_at::date': 'last_seen',
  created_at: 'first_seen',
  'created_at::date': 'first_seen',
  volume_30_day: 'volume_30_day',
};

function orderParam(query: Record<string, unknown>): EventListParams['order'] {
  const raw = query.ordering;
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).filter((v): v is string => typeof v === 'string');
  // Unknown fields are dropped, as PostHog drops them.
  return values
    .flatMap((value) => value.split(','))
    .map((field) => ({ key: ORDERING[field.replace(/^-/, '')], descending: field.startsWith('-') }))
    .filter((o): o is { key: EventNameOrderKey; descending: boolean } => o.key !== undefined);
}

export function parseEventListParams(query: Record<string, unknown>): EventListParams {
  const eventType = text(query, 'event_type') ?? 'event';
  if (!(eventType in EVENT_TYPES)) {
    throw new ValidationError('Not a valid event type. Use one of: event, event_custom, event_posthog.', 'event_type', 'invalid_input');
  }
  return {
    search: searchParam(query.search),
    posthogEvents: EVENT_TYPES[eventType]!,
    excludeHidden: booleanParam(text(query, 'exclude_hidden'), 'exclude_hidden', false)!,
    verified: booleanParam(text(query, 'verified'), 'verified', null),
    names: namesParam(text(query, 'names')),
    order: orderParam(query),
  };
}
