// PostHog's WebAnalyticsQueryBase (frontend schema-general.ts): the fields every web analytics
// query (WebOverviewQuery, WebStatsTableQuery, ...) shares, as Hoglet's runners receive them.
import type { CompareFilter, DateRange, PropertyGroup } from '../../nodes/schema.js';

/** `{actionId}` (an action) or `{customEventName}` (an event name): what counts as a conversion. */
export type ConversionGoal =
  | { readonly actionId: number }
  | { readonly customEventName: string };

export const WEB_ORDER_BY_FIELDS = [
  'Visitors', 'Views', 'Clicks', 'BounceRate', 'AverageScrollPercentage', 'ScrollGt80Percentage',
  'TotalConversions', 'UniqueConversions', 'ConversionRate', 'ConvertingUsers', 'RageClicks', 'DeadClicks', 'Errors',
] as const;
export type WebOrderByField = (typeof WEB_ORDER_BY_FIELDS)[number];
export type WebOrderBy = readonly [WebOrderByField, 'ASC' | 'DESC'];

/** PostHog's BounceRatePageViewMode values Hoglet computes (uniq_urls needs a field it lacks). */
export const BOUNCE_MODES = ['count_pageviews', 'uniq_page_screen_autocaptures'] as const;
export type BounceMode = (typeof BOUNCE_MODES)[number];

/** The modifiers that change a web query's numbers; the others are PostHog engine switches, ignored. */
export interface WebModifiers {
  readonly bounceRatePageViewMode: BounceMode;
  /** A one-page session shorter than this is a bounce (PostHog's default 10). */
  readonly bounceRateDurationSeconds: number;
}

export interface WebAnalyticsQueryBase {
  /** Missing: PostHog's default, -7d to today's end. */
  readonly dateRange: DateRange;
  /** Event, person, session (and cohort) filters, ANDed; applied to each event row. */
  readonly properties: PropertyGroup;
  readonly compareFilter: CompareFilter | null;
  readonly filterTestAccounts: boolean;
  readonly conversionGoal: ConversionGoal | null;
  readonly doPathCleaning: boolean;
  readonly orderBy: WebOrderBy | null;
  readonly includeRevenue: boolean;
  readonly modifiers: WebModifiers;
}
