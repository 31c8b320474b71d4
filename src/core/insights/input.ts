// The writable fields of an insight, checked. Shapes (types, lengths) are checked by the route's
// schema first; this adds what a schema cannot say: JSON nesting, query kinds, tag normalisation.
import { ValidationError } from '../../errors.js';
import { isObject, type JsonObject } from '../../query/nodes/read-json.js';
import { cleanTags } from '../actions/validate.js';
import { jsonDepth } from '../json-depth.js';
import { checkStoredQuery, INSIGHT_SOURCE_KINDS, MAX_JSON_DEPTH, STORABLE_QUERY_KINDS } from './query-of.js';
import { SHORT_ID_PATTERN } from './short-id.js';

export interface InsightInput {
  short_id?: string | undefined;
  name?: string | null | undefined;
  derived_name?: string | null | undefined;
  description?: string | null | undefined;
  filters?: unknown;
  query?: unknown;
  order?: number | null | undefined;
  deleted?: boolean | undefined;
  dashboards?: number[] | undefined;
  tags?: string[] | undefined;
  favorited?: boolean | undefined;
  saved?: boolean | undefined;
}

/** What an input asks to change, normalised; absent keys are left alone. */
export interface CheckedInsightInput {
  shortId?: string;
  name?: string | null;
  derivedName?: string | null;
  description?: string | null;
  filters?: JsonObject;
  query?: JsonObject | null;
  order?: number | null;
  deleted?: boolean;
  dashboards?: number[];
  tags?: string[];
  favorited?: boolean;
  saved?: boolean;
}


function checkNode(value: unknown, attr: string): JsonObject | null {
  if (value === null) return null;
  if (!isObject(value)) throw new ValidationError('Expected a dictionary of items.', attr, 'not_a_dict');
  if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) throw new ValidationError(`Nested deeper than ${MAX_JSON_DEPTH} levels.`, attr);
  return value;
}

function checkQueryKind(query: JsonObject): void {
  if (typeof query.kind !== 'string' || !STORABLE_QUERY_KINDS.has(query.kind)) {
    throw new ValidationError(`Unknown query kind "${String(query.kind).slice(0, 50)}".`, 'query', 'invalid_choice');
  }
  if (query.kind === 'InsightVizNode') {
    const source = query.source;
    if (!isObject(source) || typeof source.kind !== 'string' || !INSIGHT_SOURCE_KINDS.has(source.kind)) {
      throw new ValidationError('An InsightVizNode needs a source of kind TrendsQuery, FunnelsQuery, RetentionQuery, PathsQuery, StickinessQuery or LifecycleQuery.', 'query', 'invalid_choice');
    }
  }
}

/** DRF's CharField: surrounding whitespace trimmed; NUL characters dropped (PostgreSQL refuses them). */
export const cleanCharField = (value: string | null | undefined): string | null | undefined =>
  value === undefined || value === null ? value : value.replace(/\0/g, '').trim();
const text = cleanCharField;

export function checkInsightInput(input: InsightInput): CheckedInsightInput {
  const checked: CheckedInsightInput = {};
  if (input.short_id !== undefined) {
    if (!SHORT_ID_PATTERN.test(input.short_id)) throw new ValidationError('Use 1 to 12 characters of A-Z, a-z, 0-9, _ or -.', 'short_id');
    checked.shortId = input.short_id;
  }
  if (input.name !== undefined) checked.name = text(input.name)!;
  if (input.derived_name !== undefined) checked.derivedName = text(input.derived_name)!;
  if (input.description !== undefined) checked.description = text(input.description)!;
  if (input.filters !== undefined) checked.filters = checkNode(input.filters, 'filters') ?? {};
  if (input.query !== undefined) {
    const query = checkNode(input.query, 'query');
    if (query) checkQueryKind(query);
    checked.query = query;
  }
  if (checked.query !== undefined || checked.filters !== undefined) checkStoredQuery(checked.query ?? null, checked.query ? null : (checked.filters ?? null));
  if (input.order !== undefined) checked.order = input.order;
  if (input.deleted !== undefined) checked.deleted = input.deleted;
  if (input.dashboards !== undefined) checked.dashboards = [...new Set(input.dashboards)];
  if (input.tags !== undefined) checked.tags = cleanTags(input.tags);
  if (input.favorited !== undefined) checked.favorited = input.favorited;
  if (input.saved !== undefined) checked.saved = input.saved;
  return checked;
}
