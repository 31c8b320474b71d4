// The kinds PostHog's query endpoint accepts at all (the QuerySchema union in PostHog's
// frontend/src/queries/schema/schema-general.ts). A kind outside it is a request PostHog cannot
// parse (400 parse_error); a kind inside it that Hoglet does not run is Hoglet's invalid_choice.
// (The /query/ route asks after the insight-actors kinds, which Hoglet also takes at the top level.)
import { ParseError } from '../../errors.js';

export const POSTHOG_QUERY_KINDS: ReadonlySet<string> = new Set([
  'EventsNode', 'ActionsNode', 'PersonsNode', 'DataWarehouseNode', 'EventsQuery', 'ActorsQuery', 'GroupsQuery',
  'InsightActorsQuery', 'InsightActorsQueryOptions', 'SessionsTimelineQuery', 'HogQuery', 'HogQLQuery', 'HogQLMetadata',
  'HogQLAutocomplete', 'HogQLASTQuery', 'SessionAttributionExplorerQuery', 'RevenueExampleEventsQuery',
  'RevenueExampleDataWarehouseTablesQuery', 'ErrorTrackingQuery', 'ErrorTrackingSimilarIssuesQuery',
  'ErrorTrackingIssueCorrelationQuery', 'ExperimentFunnelsQuery', 'ExperimentTrendsQuery', 'ExperimentQuery',
  'ExperimentExposureQuery', 'DocumentSimilarityQuery', 'WebOverviewQuery', 'WebStatsTableQuery',
  'WebExternalClicksTableQuery', 'WebGoalsQuery', 'WebVitalsQuery', 'WebVitalsPathBreakdownQuery', 'WebPageURLSearchQuery',
  'WebAnalyticsExternalSummaryQuery', 'RevenueAnalyticsGrossRevenueQuery', 'RevenueAnalyticsMetricsQuery',
  'RevenueAnalyticsMRRQuery', 'RevenueAnalyticsOverviewQuery', 'RevenueAnalyticsTopCustomersQuery',
  'MarketingAnalyticsTableQuery', 'MarketingAnalyticsAggregatedQuery', 'DataVisualizationNode', 'DataTableNode',
  'SavedInsightNode', 'InsightVizNode', 'TrendsQuery', 'FunnelsQuery', 'RetentionQuery', 'PathsQuery', 'StickinessQuery',
  'LifecycleQuery', 'FunnelCorrelationQuery', 'DatabaseSchemaQuery', 'LogsQuery', 'SuggestedQuestionsQuery',
  'TeamTaxonomyQuery', 'EventTaxonomyQuery', 'ActorsPropertyTaxonomyQuery', 'TracesQuery', 'TraceQuery',
  'VectorSearchQuery', 'UsageMetricsQuery',
]);

/** PostHog's answer (pydantic's, on its QueryRequest) to a query whose kind no schema knows. */
export function refuseUnknownKind(query: unknown): void {
  if (query === null || typeof query !== 'object' || Array.isArray(query)) return;
  const kind = (query as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || POSTHOG_QUERY_KINDS.has(kind)) return;
  const shown = kind.slice(0, 50).replaceAll("'", "\\'");
  throw new ParseError(
    `1 validation error for QueryRequest\nquery\n  Input tag '${shown}' found using 'kind' does not match any of the expected tags: ` +
      `${[...POSTHOG_QUERY_KINDS].map((k) => `'${k}'`).join(', ')} [type=union_tag_invalid]`,
  );
}
