// PostHog's modern query nodes (frontend/src/queries/schema), the subset Hoglet runs. The legacy
// filter dicts are converted into these (legacy-filters.ts); runners only ever see these.
import type { WebAnalyticsQueryBase } from '../runners/web-shared/types.js';
import type { WebStatsTableQuery } from '../runners/web-stats-table/types.js';

export const BASE_MATHS = ['total', 'dau', 'weekly_active', 'monthly_active', 'unique_session', 'first_time_for_user', 'first_matching_event_for_user'] as const;
export const PROPERTY_MATHS = ['sum', 'avg', 'min', 'max', 'median', 'p75', 'p90', 'p95', 'p99'] as const;
export const COUNT_PER_ACTOR_MATHS = ['avg_count_per_actor', 'min_count_per_actor', 'max_count_per_actor', 'median_count_per_actor', 'p75_count_per_actor', 'p90_count_per_actor', 'p95_count_per_actor', 'p99_count_per_actor'] as const;
/** Distinct groups of `math_group_type_index` (PostHog's GroupMathType). */
export const GROUP_MATHS = ['unique_group'] as const;
/** `hogql`: the series' value is its `math_hogql` aggregate expression, e.g. sum(properties.price). */
export const HOGQL_MATHS = ['hogql'] as const;
export const MATHS = [...BASE_MATHS, ...PROPERTY_MATHS, ...COUNT_PER_ACTOR_MATHS, ...GROUP_MATHS, ...HOGQL_MATHS] as const;
/** Maths that count actors, so `math_group_type_index` can make the actor a group (PostHog's is_groups_math). */
export const GROUP_CAPABLE_MATHS: ReadonlySet<MathType> = new Set(['unique_group', 'dau', 'weekly_active', 'monthly_active']);
export type MathType = (typeof MATHS)[number];
export type PropertyMath = (typeof PROPERTY_MATHS)[number];
export type CountPerActorMath = (typeof COUNT_PER_ACTOR_MATHS)[number];

export const PROPERTY_OPERATORS = [
  'exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex', 'gt', 'gte', 'lt', 'lte',
  'is_set', 'is_not_set', 'is_date_before', 'is_date_after', 'is_date_exact', 'between', 'not_between',
  'in', 'not_in', 'min', 'max', 'is_cleaned_path_exact',
] as const;
export type PropertyOperator = (typeof PROPERTY_OPERATORS)[number];

/**
 * `hogql`: the key is a HogQL boolean expression over the event (operator and value unused);
 * `cohort`: key "id", value the cohort's id, operator in or not_in.
 */
export const PROPERTY_FILTER_TYPES = ['event', 'person', 'group', 'hogql', 'cohort'] as const;
/** `session`: a field of the event's session; a HogQLQuery's `filters` and insights' properties take it (readProperties' option). */
export type PropertyFilterType = (typeof PROPERTY_FILTER_TYPES)[number] | 'session';

export type PropertyValue = string | number | boolean | null | readonly (string | number | boolean)[];

export interface PropertyFilter {
  readonly key: string;
  readonly value?: PropertyValue;
  readonly operator: PropertyOperator;
  readonly type: PropertyFilterType;
  readonly group_type_index?: number;
}

export interface PropertyGroup {
  readonly type: 'AND' | 'OR';
  readonly values: readonly (PropertyFilter | PropertyGroup)[];
}

export type Properties = PropertyGroup;

export interface SeriesCommon {
  readonly name?: string | null;
  readonly custom_name?: string | null;
  readonly math: MathType;
  readonly math_property?: string | null;
  readonly math_property_type?: 'event_properties' | 'person_properties' | null;
  /** The aggregate expression of math `hogql`. */
  readonly math_hogql?: string | null;
  /** Group type index 0-4 whose groups the math counts (unique_group, and dau/weekly/monthly active). */
  readonly math_group_type_index?: number | null;
  readonly properties: Properties;
  readonly optionalInFunnel?: boolean;
}

export interface EventsNode extends SeriesCommon {
  readonly kind: 'EventsNode';
  /** null = all events */
  readonly event: string | null;
}

export interface ActionsNode extends SeriesCommon {
  readonly kind: 'ActionsNode';
  readonly id: number;
}

export type SeriesNode = EventsNode | ActionsNode;

export const INTERVALS = ['minute', 'hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

export interface DateRange {
  readonly date_from?: string | null;
  readonly date_to?: string | null;
  readonly explicitDate?: boolean | null;
}

/** `hogql`: the breakdown is a HogQL expression over the event; `cohort`: a list of cohort ids and "all". */
export const BREAKDOWN_TYPES = ['event', 'person', 'group', 'hogql', 'cohort'] as const;
export type BreakdownType = (typeof BREAKDOWN_TYPES)[number];

export interface BreakdownFilter {
  readonly breakdown: string;
  readonly breakdown_type: BreakdownType;
  readonly breakdown_limit?: number | null;
  readonly breakdown_group_type_index?: number | null;
  readonly breakdown_hide_other_aggregation?: boolean | null;
  /** Numeric breakdown into this many equal-width bins (trends only). */
  readonly breakdown_histogram_bin_count?: number | null;
  /** breakdown_type cohort: the cohorts, in the order given ("all" is everyone). */
  readonly breakdown_cohorts?: readonly CohortBreakdownItem[];
}

export type CohortBreakdownItem = number | 'all';

export interface CompareFilter {
  readonly compare: boolean;
  readonly compare_to?: string | null;
}

export const DISPLAYS = [
  'ActionsLineGraph', 'ActionsBar', 'ActionsUnstackedBar', 'ActionsStackedBar', 'ActionsAreaGraph',
  'ActionsLineGraphCumulative', 'BoldNumber', 'ActionsPie', 'ActionsBarValue', 'ActionsTable', 'WorldMap',
  'CalendarHeatmap',
] as const;
export type Display = (typeof DISPLAYS)[number];
/** Displays that show one number per series instead of a time series. */
export const TOTAL_VALUE_DISPLAYS: ReadonlySet<Display> = new Set(['BoldNumber', 'ActionsPie', 'ActionsBarValue', 'ActionsTable', 'WorldMap', 'CalendarHeatmap']);

export interface FormulaNode {
  readonly formula: string;
  readonly custom_name?: string | null;
}

export interface TrendsFilter {
  readonly display: Display;
  readonly formulaNodes: readonly FormulaNode[];
  readonly smoothingIntervals: number;
}

export interface TrendsQuery {
  readonly kind: 'TrendsQuery';
  readonly series: readonly SeriesNode[];
  readonly dateRange: DateRange;
  readonly interval: Interval;
  readonly properties: Properties;
  readonly filterTestAccounts: boolean;
  readonly trendsFilter: TrendsFilter;
  readonly breakdownFilter: BreakdownFilter | null;
  readonly compareFilter: CompareFilter | null;
}

export const FUNNEL_VIZ_TYPES = ['steps', 'trends', 'time_to_convert'] as const;
export const FUNNEL_ORDER_TYPES = ['ordered', 'strict', 'unordered'] as const;
export const FUNNEL_WINDOW_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month'] as const;
export const BREAKDOWN_ATTRIBUTIONS = ['first_touch', 'last_touch', 'all_events', 'step'] as const;
export type FunnelWindowUnit = (typeof FUNNEL_WINDOW_UNITS)[number];

export interface FunnelExclusion {
  readonly kind: 'EventsNode' | 'ActionsNode';
  readonly event?: string | null;
  readonly id?: number;
  readonly name?: string | null;
  readonly funnelFromStep: number;
  readonly funnelToStep: number;
  readonly properties: Properties;
}

export interface FunnelsFilter {
  readonly funnelVizType: (typeof FUNNEL_VIZ_TYPES)[number];
  readonly funnelOrderType: (typeof FUNNEL_ORDER_TYPES)[number];
  readonly funnelWindowInterval: number;
  readonly funnelWindowIntervalUnit: FunnelWindowUnit;
  readonly funnelFromStep?: number | null;
  readonly funnelToStep?: number | null;
  readonly exclusions: readonly FunnelExclusion[];
  readonly breakdownAttributionType: (typeof BREAKDOWN_ATTRIBUTIONS)[number];
  readonly breakdownAttributionValue?: number | null;
  readonly binCount?: number | null;
}

export interface FunnelsQuery {
  readonly kind: 'FunnelsQuery';
  readonly series: readonly SeriesNode[];
  readonly dateRange: DateRange;
  readonly interval: Interval;
  readonly properties: Properties;
  readonly filterTestAccounts: boolean;
  readonly funnelsFilter: FunnelsFilter;
  readonly breakdownFilter: BreakdownFilter | null;
  /** The actor is the group of this type (`$group_N`) instead of the person; absent = persons. */
  readonly aggregation_group_type_index?: number;
}

export const RETENTION_PERIODS = ['Hour', 'Day', 'Week', 'Month'] as const;
export type RetentionPeriod = (typeof RETENTION_PERIODS)[number];
export const RETENTION_TYPES = ['retention_recurring', 'retention_first_time', 'retention_first_ever_occurrence'] as const;
export type RetentionType = (typeof RETENTION_TYPES)[number];

/** A retention entity (PostHog's RetentionEntity): an event (null = any event) or an action. */
export type RetentionEntity =
  | { readonly kind: 'EventsNode'; readonly event: string | null; readonly name: string | null; readonly custom_name: string | null; readonly properties: Properties }
  | { readonly kind: 'ActionsNode'; readonly id: number; readonly name: string | null; readonly custom_name: string | null; readonly properties: Properties };

export interface RetentionFilter {
  readonly period: RetentionPeriod;
  readonly totalIntervals: number;
  readonly targetEntity: RetentionEntity;
  readonly returningEntity: RetentionEntity;
  readonly retentionType: RetentionType;
  readonly cumulative: boolean;
  readonly minimumOccurrences: number;
}

export interface RetentionQuery {
  readonly kind: 'RetentionQuery';
  readonly dateRange: DateRange;
  readonly properties: Properties;
  readonly filterTestAccounts: boolean;
  readonly retentionFilter: RetentionFilter;
  readonly breakdownFilter: BreakdownFilter | null;
  /** The actor is the group of this type (`$group_N`) instead of the person; absent = persons. */
  readonly aggregation_group_type_index?: number;
}

export const STICKINESS_OPERATORS = ['gte', 'lte', 'exact', 'gt', 'lt'] as const;
export type StickinessOperator = (typeof STICKINESS_OPERATORS)[number];

export interface StickinessFilter {
  readonly computedAs: 'non_cumulative' | 'cumulative';
  /** An interval counts for an actor when their events in it satisfy this (default: at least one). */
  readonly stickinessCriteria: { readonly operator: StickinessOperator; readonly value: number } | null;
}

export interface StickinessQuery {
  readonly kind: 'StickinessQuery';
  readonly series: readonly SeriesNode[];
  readonly dateRange: DateRange;
  readonly interval: Interval;
  /** Intervals counted in groups of this many, back from date_to (null: one by one). */
  readonly intervalCount: number | null;
  readonly properties: Properties;
  readonly filterTestAccounts: boolean;
  readonly stickinessFilter: StickinessFilter;
  readonly compareFilter: CompareFilter | null;
}

export const LIFECYCLE_STATUSES = ['new', 'returning', 'resurrecting', 'dormant'] as const;
export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

export interface LifecycleQuery {
  readonly kind: 'LifecycleQuery';
  /** PostHog's lifecycle reads its first series only. */
  readonly series: readonly SeriesNode[];
  readonly dateRange: DateRange;
  readonly interval: Interval;
  readonly properties: Properties;
  readonly filterTestAccounts: boolean;
  /** The actor is the group of this type (`$group_N`) instead of the person; absent = persons. */
  readonly aggregation_group_type_index?: number;
}

export const PATH_TYPES = ['$pageview', '$screen', 'custom_event', 'hogql'] as const;
export type PathType = (typeof PATH_TYPES)[number];

/** A path cleaning rule: every match of `regex` (RE2) is replaced by `alias` (`\\1` for groups). */
export interface PathCleaningRule {
  readonly regex: string;
  readonly alias: string;
}

export interface PathsFilter {
  /** Empty: every event. */
  readonly includeEventTypes: readonly PathType[];
  /** With `hogql` among the types: the HogQL expression that names each event's path item. */
  readonly pathsHogQLExpression: string | null;
  readonly startPoint: string | null;
  readonly endPoint: string | null;
  readonly stepLimit: number;
  readonly pathGroupings: readonly string[];
  readonly excludeEvents: readonly string[];
  /** Apply the project's path_cleaning_filters first. */
  readonly pathReplacements: boolean;
  readonly localPathCleaningFilters: readonly PathCleaningRule[];
  readonly edgeLimit: number;
  readonly minEdgeWeight: number | null;
  readonly maxEdgeWeight: number | null;
  /** Only for the actors of a node or edge: their paths leave this node, ... */
  readonly pathStartKey: string | null;
  /** ... reach this node (after pathStartKey when both are given: the edge), ... */
  readonly pathEndKey: string | null;
  /** ... or end at this node. */
  readonly pathDropoffKey: string | null;
}

export const FUNNEL_PATH_TYPES = ['funnel_path_before_step', 'funnel_path_after_step', 'funnel_path_between_steps'] as const;

/** Paths of a funnel step's actors: before or after their step event, or between it and the step before. */
export interface FunnelPaths {
  readonly funnelPathType: (typeof FUNNEL_PATH_TYPES)[number];
  /** 1-based step of the funnel (converted to it). */
  readonly funnelStep: number;
  readonly funnelSource: FunnelsQuery;
}

export interface PathsQuery {
  readonly kind: 'PathsQuery';
  readonly dateRange: DateRange;
  readonly properties: Properties;
  readonly filterTestAccounts: boolean;
  readonly pathsFilter: PathsFilter;
  readonly funnelPathsFilter: FunnelPaths | null;
}

export const CORRELATION_TYPES = ['events', 'properties', 'event_with_properties'] as const;
export type CorrelationType = (typeof CORRELATION_TYPES)[number];

/** What tells a funnel's converters from its drop-offs (PostHog's FunnelCorrelationQuery). */
export interface FunnelCorrelationQuery {
  readonly kind: 'FunnelCorrelationQuery';
  /** The funnel (FunnelsActorsQuery.source) whose entrants are compared. */
  readonly source: FunnelsQuery;
  readonly funnelCorrelationType: CorrelationType;
  /** properties: person (or group) property names, or ['$all']. */
  readonly funnelCorrelationNames: readonly string[];
  readonly funnelCorrelationExcludeNames: readonly string[];
  /** event_with_properties: the events whose properties are compared. */
  readonly funnelCorrelationEventNames: readonly string[];
  /** events: event names left out. */
  readonly funnelCorrelationExcludeEventNames: readonly string[];
  /** event_with_properties: property names left out. */
  readonly funnelCorrelationEventExcludePropertyNames: readonly string[];
}

/** A constant a `{name}` placeholder of a HogQL query stands for (HogQLQuery.values). */
export type HogQLValue = string | number | boolean | null | readonly (string | number)[];

/**
 * PostHog's HogQLQuery: SQL in PostHog's dialect. Its `filters` (dateRange, properties,
 * filterTestAccounts) are kept at the top level as on the other kinds, so dashboards and test
 * accounts apply to them alike; they only take effect through a `{filters}` placeholder.
 */
export interface HogQLQuery {
  readonly kind: 'HogQLQuery';
  readonly query: string;
  readonly values: Readonly<Record<string, HogQLValue>>;
  readonly dateRange: DateRange;
  readonly properties: Properties;
  readonly filterTestAccounts: boolean;
}

/**
 * PostHog's EventsQuery: a list of events (the activity page's table) described as HogQL strings.
 * `after`/`before` are kept as a dateRange (date_from/date_to) so dashboards set them as they do
 * on other kinds; `after` defaults to -24h, `before` to now + 5 s (PostHog's defaults).
 */
export interface EventsQuery {
  readonly kind: 'EventsQuery';
  readonly select: readonly string[];
  readonly where: readonly string[];
  readonly orderBy: readonly string[] | null;
  readonly dateRange: DateRange;
  readonly event: readonly string[];
  readonly properties: Properties;
  readonly fixedProperties: Properties;
  readonly filterTestAccounts: boolean;
  readonly personId: string | null;
  readonly actionId: number | null;
  readonly limit: number | null;
  readonly offset: number;
}

/** PostHog's ActorsQuery without a source: the project's persons, searched and filtered. */
export interface PersonsListQuery {
  readonly kind: 'ActorsQuery';
  readonly select: readonly string[] | null;
  readonly search: string | null;
  readonly properties: Properties;
  readonly fixedProperties: Properties;
  readonly orderBy: readonly string[] | null;
  readonly limit: number | null;
  readonly offset: number;
}

/** PostHog's WebOverviewQuery: the web analytics page's overview numbers (runners/web-overview). */
export interface WebOverviewQuery extends WebAnalyticsQueryBase {
  readonly kind: 'WebOverviewQuery';
}

export type InsightQuery = TrendsQuery | FunnelsQuery | RetentionQuery | StickinessQuery | LifecycleQuery | PathsQuery | FunnelCorrelationQuery | HogQLQuery | EventsQuery | PersonsListQuery | WebOverviewQuery | WebStatsTableQuery;
export type InsightKind = InsightQuery['kind'];
