// The value each WebStatsTableQuery breakdown groups by, and which rows it keeps (reference
// web-analytics.md §6.1): event-level ones read the page view's properties, session-level ones
// the session's entry and exit fields (HogQL's `session.*`, the same join the overview uses).
import { and, call, constant, isNotNull } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import type { EventSource } from '../../filters/event-source.js';
import type { PathCleaningRule } from '../../nodes/schema.js';
import { sessionField } from '../web-shared/filters.js';
import type { WebStatsBreakdown } from './types.js';

export interface BreakdownSpec {
  /** Session fields the value reads (parsed before the run). */
  readonly sessionFields: readonly string[];
  /** The value of one event (a path cleaned when `rules` are given). */
  value(source: EventSource, rules: readonly PathCleaningRule[]): Expr;
  /** The rows kept, as a condition on the value; undefined: every row, NULL its own. */
  keep?(value: Expr): Expr;
}

const text = (value: string) => constant(value);
const notNull = (value: Expr) => isNotNull(value);

// PostHog's apply_path_cleaning, shared with the is_cleaned_path_exact operator.
import { cleanPath } from '../../filters/cleaned-path.js';
export { cleanPath };

const eventValue = (key: string): BreakdownSpec => ({ sessionFields: [], value: (source) => source.eventProperty(key), keep: notNull });
const sessionValue = (name: string, keep: ((value: Expr) => Expr) | null = notNull): BreakdownSpec =>
  (keep ? { sessionFields: [name], value: (source) => sessionField(source, name), keep } : { sessionFields: [name], value: (source) => sessionField(source, name) });
const sessionPath = (name: string): BreakdownSpec => ({ sessionFields: [name], value: (source, rules) => cleanPath(sessionField(source, name), rules), keep: notNull });
const number = (source: EventSource, key: string) => call('toFloat64OrNull', call('toString', source.eventProperty(key)));
const tupleItem = (value: Expr, index: number) => call('tupleElement', value, constant(index));

/** A path read from a same-site referrer: the referrer's path when it is on the event's domain. */
function previousPage(source: EventSource): Expr {
  const referrer = source.eventProperty('$referrer');
  const sameSite = call('equals', call('domain', referrer), call('domain', source.eventProperty('$current_url')));
  return call('coalesce', source.eventProperty('$prev_pageview_pathname'), call('if', sameSite, call('nullIf', call('path', referrer), text('')), constant(null)), referrer);
}

/** "source / medium / campaign" of the session's entry, `(none)` for what it lacks. */
function sourceMediumCampaign(source: EventSource): Expr {
  const or = (...values: Expr[]) => call('coalesce', ...values, text('(none)'));
  return call('concat',
    or(sessionField(source, '$entry_utm_source'), sessionField(source, '$entry_referring_domain')), text(' / '),
    or(sessionField(source, '$entry_utm_medium')), text(' / '),
    or(sessionField(source, '$entry_utm_campaign')));
}

export const BREAKDOWNS: Readonly<Record<WebStatsBreakdown, BreakdownSpec>> = {
  Page: { sessionFields: [], value: (source, rules) => cleanPath(source.eventProperty('$pathname'), rules), keep: notNull },
  ScreenName: eventValue('$screen_name'),
  Browser: eventValue('$browser'),
  OS: eventValue('$os'),
  DeviceType: eventValue('$device_type'),
  Country: eventValue('$geoip_country_code'),
  Viewport: {
    sessionFields: [],
    value: (source) => call('tuple', number(source, '$viewport_width'), number(source, '$viewport_height')),
    keep: (value) => and(...[1, 2].map((i) => call('ifNull', call('notEquals', tupleItem(value, i), constant(0)), constant(false)))),
  },
  Region: {
    sessionFields: [],
    value: (source) => call('tuple', source.eventProperty('$geoip_country_code'), source.eventProperty('$geoip_subdivision_1_code'), source.eventProperty('$geoip_subdivision_1_name')),
    keep: (value) => notNull(tupleItem(value, 2)),
  },
  City: {
    sessionFields: [],
    value: (source) => call('tuple', source.eventProperty('$geoip_country_code'), source.eventProperty('$geoip_city_name')),
    keep: (value) => notNull(tupleItem(value, 2)),
  },
  // Hours east of UTC from the browser's getTimezoneOffset() minutes (-330 -> 5.5).
  Timezone: { sessionFields: [], value: (source) => call('divide', call('minus', constant(0), number(source, '$timezone_offset')), constant(60)), keep: notNull },
  // The language before its "-"; the region most seen with it is added per row (see sql.ts).
  Language: { sessionFields: [], value: (source) => call('nullIf', call('arrayElement', call('splitByChar', text('-'), call('coalesce', source.eventProperty('$browser_language'), text(''))), constant(1)), text('')), keep: notNull },
  PreviousPage: { sessionFields: [], value: (source, rules) => cleanPath(previousPage(source), rules), keep: notNull },
  InitialPage: sessionPath('$entry_pathname'),
  ExitPage: sessionPath('$end_pathname'),
  ExitClick: sessionValue('$last_external_click_url'),
  InitialChannelType: sessionValue('$channel_type', (value) => and(notNull(value), call('notEquals', value, text('')))),
  InitialReferringDomain: sessionValue('$entry_referring_domain'),
  InitialUTMSource: sessionValue('$entry_utm_source', null),
  InitialUTMMedium: sessionValue('$entry_utm_medium', null),
  InitialUTMCampaign: sessionValue('$entry_utm_campaign', null),
  InitialUTMTerm: sessionValue('$entry_utm_term', null),
  InitialUTMContent: sessionValue('$entry_utm_content', null),
  InitialUTMSourceMediumCampaign: { sessionFields: ['$entry_utm_source', '$entry_referring_domain', '$entry_utm_medium', '$entry_utm_campaign'], value: sourceMediumCampaign },
};

/** The region part of a browser language ("US" of "en-US"), NULL without one. */
export function languageRegion(source: EventSource): Expr {
  return call('nullIf', call('arrayElement', call('splitByChar', text('-'), call('coalesce', source.eventProperty('$browser_language'), text(''))), constant(2)), text(''));
}

