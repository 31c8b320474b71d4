// Every writable project setting, with PostHog's default, nullability and limits. This one table
// drives the request schema, validation, storage defaults and the activity-log diff.

export type SettingSpec =
  | { kind: 'string'; default: string | null; nullable: boolean; maxLength: number }
  | { kind: 'boolean'; default: boolean | null; nullable: boolean }
  | { kind: 'json'; default: unknown }
  | { kind: 'stringList'; default: string[] | null; nullable: boolean; itemMaxLength: number }
  | { kind: 'integer'; default: number | null; nullable: boolean; min: number; max: number }
  | { kind: 'choice'; default: number | null; choices: readonly number[] }
  | { kind: 'sampleRate' }
  | { kind: 'timezone' };

/** PostHog's default test-account filter: hide events sent from localhost. */
export const DEFAULT_TEST_ACCOUNT_FILTERS = [
  { key: '$host', operator: 'not_regex', value: '^(localhost|127\\.0\\.0\\.1)($|:)', type: 'event' },
];

const bool = (def: boolean | null): SettingSpec => ({ kind: 'boolean', default: def, nullable: def === null });
const json = (def: unknown): SettingSpec => ({ kind: 'json', default: def });
const list = (def: string[] | null, itemMaxLength = 200): SettingSpec => ({
  kind: 'stringList',
  default: def,
  nullable: true,
  itemMaxLength,
});

export const PROJECT_SETTINGS = {
  app_urls: list([]),
  slack_incoming_webhook: { kind: 'string', default: null, nullable: true, maxLength: 500 },
  anonymize_ips: bool(false),
  completed_snippet_onboarding: bool(false),
  test_account_filters: json(DEFAULT_TEST_ACCOUNT_FILTERS),
  test_account_filters_default_checked: bool(null),
  path_cleaning_filters: json([]),
  is_demo: bool(false),
  timezone: { kind: 'timezone' },
  data_attributes: json(['data-attr']),
  person_display_name_properties: list(null, 400),
  correlation_config: json({}),
  autocapture_opt_out: bool(null),
  autocapture_exceptions_opt_in: bool(null),
  autocapture_web_vitals_opt_in: bool(null),
  autocapture_web_vitals_allowed_metrics: json(null),
  autocapture_exceptions_errors_to_ignore: json(null),
  capture_console_log_opt_in: bool(true),
  capture_performance_opt_in: bool(true),
  session_recording_opt_in: bool(false),
  session_recording_sample_rate: { kind: 'sampleRate' },
  session_recording_minimum_duration_milliseconds: {
    kind: 'integer',
    default: null,
    nullable: true,
    min: 0,
    max: 30000,
  },
  session_recording_linked_flag: json(null),
  session_recording_network_payload_capture_config: json(null),
  session_recording_masking_config: json(null),
  session_recording_url_trigger_config: json([]),
  session_recording_url_blocklist_config: json([]),
  session_recording_event_trigger_config: list([], 10000),
  session_recording_trigger_match_type_config: { kind: 'string', default: null, nullable: true, maxLength: 24 },
  session_replay_config: json(null),
  // How long recordings are kept ("30d", "90d", "1y", "5y"); the recordings' retention job removes older ones.
  session_recording_retention_period: { kind: 'string', default: '30d', nullable: false, maxLength: 3 },
  access_control: bool(false),
  week_start_day: { kind: 'choice', default: null, choices: [0, 1] },
  primary_dashboard: { kind: 'integer', default: null, nullable: true, min: 1, max: 2 ** 31 - 1 },
  live_events_columns: list(null, 400),
  recording_domains: list([]),
  inject_web_apps: bool(null),
  extra_settings: json(null),
  modifiers: json(null),
  has_completed_onboarding_for: json(null),
  surveys_opt_in: bool(null),
  heatmaps_opt_in: bool(null),
  // Hoglet's own (PostHog keeps events by plan, not by a project setting): whole months of events
  // kept before the current one, older ones removed by the retention job; null keeps everything.
  event_retention_months: { kind: 'integer', default: null, nullable: true, min: 1, max: 1200 },
} as const satisfies Record<string, SettingSpec>;

export type ProjectSettingName = keyof typeof PROJECT_SETTINGS;
export const PROJECT_SETTING_NAMES = Object.keys(PROJECT_SETTINGS) as ProjectSettingName[];

/** Settings that PostHog merges into the stored object on PATCH instead of replacing. */
export const MERGED_ON_UPDATE: ReadonlySet<ProjectSettingName> = new Set(['session_replay_config', 'modifiers']);

export const DEFAULT_TIMEZONE = 'UTC';

export function defaultValue(name: ProjectSettingName): unknown {
  const spec: SettingSpec = PROJECT_SETTINGS[name];
  switch (spec.kind) {
    case 'timezone':
      return DEFAULT_TIMEZONE;
    case 'sampleRate':
      return null;
    case 'json':
    case 'stringList':
      return structuredClone(spec.default);
    default:
      return spec.default;
  }
}
