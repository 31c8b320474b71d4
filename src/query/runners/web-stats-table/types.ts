// PostHog's WebStatsTableQuery (frontend schema-general.ts) as the runner receives it.
import type { WebAnalyticsQueryBase } from '../web-shared/types.js';

/** The breakdowns Hoglet answers (PostHog's WebStatsBreakdown, reference web-analytics.md §6.1). */
export const WEB_STATS_BREAKDOWNS = [
  'Page', 'InitialPage', 'ExitPage', 'ExitClick', 'PreviousPage', 'ScreenName',
  'InitialChannelType', 'InitialReferringDomain',
  'InitialUTMSource', 'InitialUTMCampaign', 'InitialUTMMedium', 'InitialUTMTerm', 'InitialUTMContent', 'InitialUTMSourceMediumCampaign',
  'Browser', 'OS', 'Viewport', 'DeviceType', 'Country', 'Region', 'City', 'Timezone', 'Language',
] as const;
export type WebStatsBreakdown = (typeof WEB_STATS_BREAKDOWNS)[number];

export interface WebStatsTableQuery extends WebAnalyticsQueryBase {
  readonly kind: 'WebStatsTableQuery';
  readonly breakdownBy: WebStatsBreakdown;
  readonly includeBounceRate: boolean;
  /** Accepted; the scroll columns are not computed (see docs/api.md). */
  readonly includeScrollDepth: boolean;
  /** Rows per page; null: PostHog's default page of 100. */
  readonly limit: number | null;
  readonly offset: number;
}
