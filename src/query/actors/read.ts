// PostHog's actor queries as /query/ takes them: an ActorsQuery around an InsightActorsQuery (or a
// FunnelCorrelationActorsQuery), or one of those alone. The insight node inside is read by its kind; the InsightActorsQuery's
// other fields (interval, funnelStep, breakdown...) say which number's actors, and the kind reads them.
import { fail, join, readArray, readObject, readOptionalInteger, readString, type Json, type JsonObject } from '../nodes/read-json.js';
import type { InsightQuery } from '../nodes/schema.js';
import { readInsightQuery } from '../runners/registry.js';

/** The actor queries /query/ answers; the insight ones name the number whose actors they want. */
const INSIGHT_ACTOR_KINDS = new Set(['InsightActorsQuery', 'FunnelCorrelationActorsQuery']);
/** PostHog's ActorsQuery page size, and the most one page may hold here. */
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;

export interface ActorsRequest {
  readonly source: InsightQuery;
  /** The InsightActorsQuery's fields besides its source. */
  readonly target: JsonObject;
  readonly limit: number;
  readonly offset: number;
  /** The columns asked for, or null for the kind's own. */
  readonly select: readonly string[] | null;
}

/** An actors query of an insight; an ActorsQuery without a source lists persons (runners/persons/). */
export const isActorsQuery = (value: Json): boolean => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const node = value as JsonObject;
  return INSIGHT_ACTOR_KINDS.has(node.kind as string) || (node.kind === 'ActorsQuery' && node.source !== undefined && node.source !== null);
};

export function readActorsQuery(value: Json, path = 'query'): ActorsRequest {
  const node = readObject(value, path);
  const wrapped = node.kind === 'ActorsQuery';
  const insightActorsPath = wrapped ? join(path, 'source') : path;
  const insightActors = wrapped ? readObject(node.source, insightActorsPath) : node;
  if (!INSIGHT_ACTOR_KINDS.has(insightActors.kind as string)) {
    fail(join(insightActorsPath, 'kind'), 'Only the actors of an insight (an InsightActorsQuery or FunnelCorrelationActorsQuery source) are supported yet.', 'invalid_choice');
  }
  const { kind: _kind, source, ...target } = insightActors;
  return {
    source: readInsightQuery(source, join(insightActorsPath, 'source')),
    target,
    limit: readOptionalInteger(node.limit, join(path, 'limit'), 1, MAX_LIMIT) ?? DEFAULT_LIMIT,
    offset: readOptionalInteger(node.offset, join(path, 'offset'), 0, Number.MAX_SAFE_INTEGER) ?? 0,
    select: wrapped && node.select !== undefined && node.select !== null
      ? readArray(node.select, join(path, 'select')).map((column, i) => readString(column, join(join(path, 'select'), i), 200))
      : null,
  };
}
