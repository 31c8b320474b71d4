// The one list of insight kinds Hoglet calculates. Reading a node, converting a legacy filter,
// caching, running and exporting all go through a kind's module found here.
import { fail, join, readObject, type Json, type JsonObject } from '../nodes/read-json.js';
import type { InsightKind, InsightQuery } from '../nodes/schema.js';
import { funnelsKind } from './funnels/kind.js';
import type { QueryKind } from './kind.js';
import { retentionKind } from './retention/kind.js';
import { trendsKind } from './trends/kind.js';

type Registry = { readonly [K in InsightKind]: QueryKind<Extract<InsightQuery, { kind: K }>> };

export const KINDS: Registry = Object.freeze({
  TrendsQuery: trendsKind,
  FunnelsQuery: funnelsKind,
  RetentionQuery: retentionKind,
});

const KIND_NAMES = Object.keys(KINDS) as InsightKind[];

export const isCalculatedKind = (kind: unknown): kind is InsightKind => typeof kind === 'string' && Object.hasOwn(KINDS, kind);

/** The module of a query's kind, typed for code that handles any kind alike. */
export function kindOf(query: InsightQuery): QueryKind<InsightQuery> {
  return KINDS[query.kind] as unknown as QueryKind<InsightQuery>;
}

/** The module whose legacy `filters.insight` is this name (any case), or null. */
export function kindOfLegacyInsight(insight: string): QueryKind<InsightQuery> | null {
  const name = insight.toUpperCase();
  const kind = KIND_NAMES.find((k) => KINDS[k].legacyInsight === name);
  return kind ? (KINDS[kind] as unknown as QueryKind<InsightQuery>) : null;
}

/** Validates a query node of any calculated kind, or an InsightVizNode around one. */
export function readInsightQuery(value: Json, path = 'query'): InsightQuery {
  const node: JsonObject = readObject(value, path);
  if (node.kind === 'InsightVizNode') return readInsightQuery(node.source, join(path, 'source'));
  if (isCalculatedKind(node.kind)) return KINDS[node.kind].read(node, path);
  return fail(join(path, 'kind'), `Query kind "${String(node.kind).slice(0, 50)}" is not supported here; use ${KIND_NAMES.join(', ')} or an InsightVizNode around one.`, 'invalid_choice');
}
