// The `sessionRecording` part of the remote config: `false` unless the project opted in, else the
// keys and shapes of PostHog's `RemoteConfig.build_config()` (posthog/models/remote_config.py),
// which are what posthog-js reads (@posthog/browser-common's SessionRecordingRemoteConfig) plus
// `recorderVersion`. `domains` is only for the answer's check of the page (recording-domains.ts).
import type { ProjectSettings } from '../projects/view.js';

export type SessionRecordingConfig = false | Record<string, unknown>;

export function sessionRecordingConfig(settings: ProjectSettings): SessionRecordingConfig {
  if (settings.session_recording_opt_in !== true) return false;
  // Sampling everything is sent as null, as PostHog does ("1.00" means no sampling).
  const sampleRate = typeof settings.session_recording_sample_rate === 'string' && settings.session_recording_sample_rate !== '1.00'
    ? settings.session_recording_sample_rate
    : null;
  const config: Record<string, unknown> = {
    endpoint: '/s/',
    consoleLogRecordingEnabled: settings.capture_console_log_opt_in === true,
    recorderVersion: 'v2',
    sampleRate,
    // PostHog's `or None`: 0 is no minimum.
    minimumDurationMilliseconds: orNull(settings.session_recording_minimum_duration_milliseconds),
    // Stored but not acted on (issue 33): recording does not wait for a linked flag.
    linkedFlag: null,
    networkPayloadCapture: orNull(settings.session_recording_network_payload_capture_config),
    masking: orNull(settings.session_recording_masking_config),
    urlTriggers: settings.session_recording_url_trigger_config ?? null,
    urlBlocklist: settings.session_recording_url_blocklist_config ?? null,
    eventTriggers: settings.session_recording_event_trigger_config ?? null,
    triggerMatchType: settings.session_recording_trigger_match_type_config ?? null,
    // PostHog names a recorder script only from a project's extra_settings.recorder_script.
    scriptConfig: recorderScript(settings.extra_settings),
    // Dropped from every answer (recording-domains.ts), after deciding whether the page may record.
    domains: settings.recording_domains ?? [],
  };
  const replay = settings.session_replay_config;
  if (replay !== null && typeof replay === 'object' && !Array.isArray(replay)) {
    const recordCanvas = (replay as Record<string, unknown>).record_canvas ?? false;
    // PostHog's fixed canvas values while canvas recording is in beta.
    config.recordCanvas = recordCanvas;
    config.canvasFps = recordCanvas ? 3 : null;
    config.canvasQuality = recordCanvas ? '0.4' : null;
  }
  return config;
}

/** Python's `value or None`: empty objects, empty strings, 0 and false become null. */
function orNull(value: unknown): unknown {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value;
  if (typeof value === 'object' && Object.keys(value).length === 0) return null;
  return value;
}

function recorderScript(extra: unknown): { script: unknown } | null {
  const script = extra !== null && typeof extra === 'object' ? (extra as Record<string, unknown>).recorder_script : undefined;
  return script ? { script } : null;
}
