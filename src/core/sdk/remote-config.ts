// The remote config posthog-js asks for at start-up (`/array/<token>/config[.js]`, and flattened
// into `/flags/?config=true` and `/decide/`), in the key order and shapes of PostHog's
// `RemoteConfig.build_config()`. Hoglet serves posthog-js's extension scripts (`/static/*.js`,
// http/routes/sdk-static.ts), so features whose data are ordinary events follow the project; it
// keeps no surveys, console logs or heatmaps, so those are answered "off" whatever the project
// says; session recording follows the project (see docs/api.md, "SDK start-up endpoints").
import type { ProjectSettings } from '../projects/view.js';
import { sessionRecordingConfig } from './session-recording-config.js';

export type RemoteConfig = Record<string, unknown>;

/** PostHog's check before interpolating a token into JavaScript (`[a-zA-Z0-9_-]`, at most 200). */
export function isWellFormedToken(token: string): boolean {
  return token.length > 0 && token.length <= 200 && /^[a-zA-Z0-9_-]+$/.test(token);
}

/** The config for a project with this capture token and these settings. */
export function buildRemoteConfig(token: string, settings: ProjectSettings, hasFeatureFlags: boolean): RemoteConfig {
  const networkTiming = settings.capture_performance_opt_in === true;
  const webVitalsOptIn = settings.autocapture_web_vitals_opt_in === true;
  const exceptions = settings.autocapture_exceptions_opt_in === true;
  return {
    token,
    supportedCompression: ['gzip', 'gzip-js'],
    // Whether the project has an active flag; `false` spares posthog-js its start-up /flags call.
    hasFeatureFlags,
    // PostHog's default; Hoglet's project settings have no capture_dead_clicks.
    captureDeadClicks: false,
    // network_timing only feeds session recordings; web vitals arrive as $web_vitals events.
    capturePerformance:
      networkTiming || webVitalsOptIn
        ? {
            network_timing: networkTiming,
            web_vitals: webVitalsOptIn,
            web_vitals_allowed_metrics: settings.autocapture_web_vitals_allowed_metrics ?? null,
          }
        : false,
    autocapture_opt_out: settings.autocapture_opt_out === true,
    // Exceptions arrive as $exception events.
    autocaptureExceptions: exceptions,
    analytics: { endpoint: '/i/v0/e/' },
    elementsChainAsString: true,
    errorTracking: { autocaptureExceptions: exceptions, suppressionRules: [] },
    // logs.js sends to /i/v1/logs, which Hoglet does not keep.
    logs: { captureConsoleLogs: false },
    // posthog-js loads its recorder script from /static/ and sends snapshots to /s/.
    sessionRecording: sessionRecordingConfig(settings),
    // Loads dead-clicks-autocapture.js and sends $$heatmap events, which PostHog keeps apart from
    // events; Hoglet would store them as ordinary events.
    heatmaps: false,
    conversations: false,
    surveys: false,
    productTours: false,
    defaultIdentifiedOnly: true,
    // Site apps are scripts served by PostHog's plugin server.
    siteApps: [],
  };
}

/**
 * `config.js`: the config assigned to `window._POSTHOG_REMOTE_CONFIG[token]`, with `siteApps`
 * moved out of it into the JavaScript array, as PostHog writes it. The token must be well formed.
 */
export function remoteConfigScript(token: string, config: RemoteConfig): string {
  const { siteApps: _siteApps, ...withoutSiteApps } = config;
  return [
    '(function() {',
    '  window._POSTHOG_REMOTE_CONFIG = window._POSTHOG_REMOTE_CONFIG || {};',
    `  window._POSTHOG_REMOTE_CONFIG['${token}'] = {`,
    `    config: ${JSON.stringify(withoutSiteApps)},`,
    '    siteApps: []',
    '  }',
    '})();',
  ].join('\n');
}
