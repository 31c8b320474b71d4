// The one list of insight kinds Hoglet calculates. Reading a node, converting a legacy filter,
// caching, running and exporting all go through a kind's module found here.
import { fail, join, readObject, type Json, type JsonObject } from '../nodes/read-json.js';
import type { InsightKind, InsightQuery } from '../nodes/schema.js';
import { correlationKind } from './correlation/kind.js';
import { eventsKind } from './events/kind.js';
import { funnelsKind } from './funnels/kind.js';
import { hogqlKind } from './hogql/kind.js';
import type { QueryKind, RangedQuery } from './kind.js';
import { lifecycleKind } from './lifecycle/kind.js';
import { pathsKind } from './paths/kind.js';
import { personsListKind } from './persons/kind.js';
import { readPersonsNode } from './persons/read.js';
import { retentionKind } from './retention/kind.js';
import { stickinessKind } from './stickiness/kind.js';
import { trendsKind } from './trends/kind.js';
import { webOverviewKind } from './web-overview/kind.js';
import { webStatsTableKind } from './web-stats-table/kind.js';

type Registry = { readonly [K in InsightKind]: QueryKind<Extract<InsightQuery, { kind: K }>> };

export const KINDS: Registry = Object.freeze({
  TrendsQuery: trendsKind,
  FunnelsQuery: funnelsKind,
  RetentionQuery: retentionKind,
  StickinessQuery: stickinessKind,
  LifecycleQuery: lifecycleKind,
  PathsQuery: pathsKind,
  FunnelCorrelationQuery: correlationKind,
  HogQLQuery: hogqlKind,
  EventsQuery: eventsKind,
  ActorsQuery: personsListKind,
  WebOverviewQuery: webOverviewKind,
  WebStatsTableQuery: webStatsTableKind,
});

/** Older node kinds read as the kind they became. */
const READ_AS: Readonly<Record<string, (node: JsonObject, path: string) => InsightQuery>> = { PersonsNode: readPersonsNode };

const KIND_NAMES = Object.keys(KINDS) as InsightKind[];

export const isCalculatedKind = (kind: unknown): kind is InsightKind => typeof kind === 'string' && Object.hasOwn(KINDS, kind);

/** The module of a query's kind, typed for code that handles any kind alike. */
export function kindOf(query: InsightQuery): QueryKind<InsightQuery> {
  return KINDS[query.kind] as unknown as QueryKind<InsightQuery>;
}

/** The part of a query with a date range and filters (a correlation's funnel; most kinds themselves). */
export function rangedPart(query: InsightQuery): RangedQuery | null {
  const kind = kindOf(query);
  return kind.ranged ? kind.ranged(query) : (query as RangedQuery);
}

/** The query with `change` applied to its ranged part. */
export function withRangedPart(query: InsightQuery, change: (ranged: RangedQuery) => RangedQuery): InsightQuery {
  const kind = kindOf(query);
  return kind.withRanged ? kind.withRanged(query, change) : change(query as RangedQuery);
}

/** The module whose legacy `filters.insight` is this name (any case), or null. */
export function kindOfLegacyInsight(insight: string): QueryKind<InsightQuery> | null {
  const name = insight.toUpperCase();
  const kind = KIND_NAMES.find((k) => KINDS[k].legacyInsight === name);
  return kind ? (KINDS[kind] as unknown as QueryKind<InsightQuery>) : null;
}

/** PostHog's legacy `shown_as` values that make a trends filter another kind. */
const SHOWN_AS: Readonly<Record<string, string>> = { Stickiness: 'STICKINESS', Lifecycle: 'LIFECYCLE' };

/**
 * The legacy insight name a filter dict means: `shown_as` (Stickiness, Lifecycle) over
 * `insight`, TRENDS when it only names series.
 */
export function legacyInsightOf(filters: JsonObject): string | null {
  const shownAs = typeof filters.shown_as === 'string' ? SHOWN_AS[filters.shown_as] : undefined;
  if (shownAs) return shownAs;
  if (typeof filters.insight === 'string') return filters.insight.toUpperCase();
  return Array.isArray(filters.events) || Array.isArray(filters.actions) ? 'TRENDS' : null;
}

/**
 * The kind a legacy calculation endpoint answers: its own, unless the filters name a kind that has
 * no endpoint of its own (PostHog's /insights/trend/ answers stickiness and lifecycle this way).
 */
export function kindOfLegacyRequest(endpointKind: QueryKind<InsightQuery>, filters: JsonObject): QueryKind<InsightQuery> {
  const name = legacyInsightOf(filters);
  const named = name === null ? null : kindOfLegacyInsight(name);
  return named && named.legacyEndpoint === null ? named : endpointKind;
}

/** Nodes that only show another query (PostHog's frontend wrappers): their `source` is what runs. */
const WRAPPERS: ReadonlySet<unknown> = new Set(['InsightVizNode', 'DataTableNode', 'DataVisualizationNode']);

export const isWrapperNode = (node: JsonObject): boolean => WRAPPERS.has(node.kind);

/** Validates a query node of any calculated kind, or a wrapper (InsightVizNode, DataTableNode, DataVisualizationNode) around one. */
export function readInsightQuery(value: Json, path = 'query'): InsightQuery {
  let node: JsonObject = readObject(value, path);
  // Unwrapped in a loop: a request could nest wrappers deeper than the call stack.
  while (isWrapperNode(node)) {
    path = join(path, 'source');
    node = readObject(node.source, path);
  }
  if (isCalculatedKind(node.kind)) return KINDS[node.kind].read(node, path);
  if (typeof node.kind === 'string' && Object.hasOwn(READ_AS, node.kind)) return READ_AS[node.kind]!(node, path);
  // PostHog's words for a kind it has no runner for (SavedInsightNode).
  return fail(join(path, 'kind'), `Unsupported query kind: ${String(node.kind).slice(0, 50)}`, 'invalid_choice');
}
