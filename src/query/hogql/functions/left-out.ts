// PostHog's HogQL functions that Hoglet does not offer, with the reason; compared function by
// function with PostHog's tables (posthog/hogql/functions/mapping.py, aggregations.py,
// clickhouse/*.py). Rendered into docs/hogql-functions.md.

export interface LeftOut {
  readonly names: readonly string[];
  readonly reason: string;
}

export const LEFT_OUT: readonly LeftOut[] = [
  {
    names: ['countState', 'countMerge', 'countStateIf', 'sumState', 'sumMerge', 'uniqState', 'uniqMerge', 'argMinState', 'argMaxMerge',
      'avgMapState', 'uniqUpToMerge', 'quantilesState', 'quantilesMerge', 'groupBitmapState', '… every -State / -Merge form'],
    reason: "ClickHouse's aggregate-state binaries: they only make sense against pre-aggregated tables, which Hoglet does not expose.",
  },
  {
    names: ['sparkline', 'recordingButton', 'explainCSPReport', 'lookupDomainType and the other channel-type lookups',
      'convertCurrency', 'getSurveyResponse', 'uniqueSurveySubmissionsFilter', 'embedText', 'getTrafficType, isLikelyBot and the other bot functions',
      'the IP, flag-variant and LLM helpers', "PostHog's deployed UDFs"],
    reason: "PostHog-specific: they expand into PostHog's own SQL, or need PostHog's dictionaries, models or cluster UDFs.",
  },
  { names: ['inCohort', 'notInCohort'], reason: 'Cohort membership is written `person_id IN COHORT 1` (or a cohort name), which Hoglet supports.' },
  { names: ['generateSeries'], reason: 'Prints the table function generate_series; table functions are not callable as functions here.' },
  { names: ['percentile_cont', 'percentile_disc'], reason: 'Need `WITHIN GROUP (ORDER BY ...)`, which Hoglet does not parse into a call.' },
  { names: ['toNullableString', '_toNullableBool'], reason: 'PostHog prints accurateCastOrNull with a type name; use toString / toBool (or nullIf) instead.' },
  { names: ['to_timestamp', 'make_timestamptz'], reason: "PostHog's templates ignore the optional time-zone argument they accept; left out rather than answer differently." },
  { names: ['JSONExtractKey'], reason: 'ClickHouse (chDB 26.7) has no function of that name.' },
  {
    names: ['url', 'file', 'remote', 's3', 'numbers (as a function)', 'dictGet*', 'joinGet', 'getSetting', 'currentDatabase', 'sleep', 'throwIf',
      'runningAccumulate', 'neighbor', 'globalIn'],
    reason: 'Not on PostHog\'s list either, and never on Hoglet\'s: they reach outside the row data or the server, stall, or keep cross-block state.',
  },
];
