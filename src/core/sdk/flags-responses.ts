// The answers of `/flags/` and `/decide/` in each version PostHog's SDKs know, built from the
// evaluated flags (reference feature-flags.md 3.1, 3.2). Shapes and version mapping: PostHog `rust/feature-flags/src/api/types.rs` (FlagsResponse,
// LegacyFlagsResponse, DecideV1Response, DecideV2Response) and `api/endpoint.rs`.
import { randomUUID } from 'node:crypto';
import type { FlagDefinition, FlagResult } from '../flags/types.js';
import type { RemoteConfig } from './remote-config.js';

/** One flag's answer and the definition it came from (for `metadata`). */
export interface EvaluatedFlag {
  flag: FlagDefinition;
  result: FlagResult;
}

export interface FlagsQuery {
  /** `v` (or `version`) as sent: PostHog reads a non-number as 1. */
  version: number | undefined;
  /** `config=true|1`; undefined when the parameter is absent. */
  config: boolean | undefined;
}

/** Reads `v`/`version` and `config` from a query string the way PostHog's Rust service does. */
export function readFlagsQuery(query: Record<string, unknown>): FlagsQuery {
  const versionText = first(query.v) ?? first(query.version);
  const configText = first(query.config);
  return {
    version: versionText === undefined || versionText === '' ? undefined : parseVersion(versionText),
    config: configText === undefined || configText === '' ? undefined : ['true', '1', 'yes', 'on'].includes(configText.toLowerCase()),
  };
}

function parseVersion(text: string): number {
  return /^-?\d{1,9}$/.test(text.trim()) ? Number(text.trim()) : 1;
}

function first(value: unknown): string | undefined {
  const item = Array.isArray(value) ? value[0] : value;
  return typeof item === 'string' ? item : undefined;
}

const identity = () => ({ requestId: randomUUID(), evaluatedAt: Date.now() });

/**
 * `POST /flags/`: v>=2 is the current shape (`flags`), anything else the legacy one
 * (`featureFlags`). With neither `v` nor `config`, PostHog answers v2 with the config.
 */
export function flagsResponse(query: FlagsQuery, config: RemoteConfig, flags: readonly EvaluatedFlag[]): Record<string, unknown> {
  const defaulted = query.version === undefined && query.config === undefined;
  const version = defaulted ? 2 : (query.version ?? 1);
  const withConfig = defaulted || query.config === true;
  const flagPart = version >= 2 ? v2Flags(flags) : legacyFlags(flags);
  return withConfig ? { ...flagPart, ...config } : flagPart;
}

/**
 * `POST /decide/`: always with the config, plus the keys older SDKs read from decide
 * (`config.enable_collect_everything`, `toolbarParams`, `isAuthenticated`). v1 (or missing, or
 * unknown) lists active flag keys, v2 maps them, v3 is the legacy /flags shape, v>=4 the current one.
 */
export function decideResponse(query: FlagsQuery, config: RemoteConfig, flags: readonly EvaluatedFlag[]): Record<string, unknown> {
  const version = query.version ?? 1;
  const enabled = flags.filter(({ result }) => result.enabled);
  let flagPart: Record<string, unknown>;
  if (version >= 4) flagPart = v2Flags(flags);
  else if (version === 3) flagPart = legacyFlags(flags);
  else if (version === 2) flagPart = { featureFlags: Object.fromEntries(enabled.map(({ result }) => [result.key, valueOf(result)])), ...identity() };
  else flagPart = { featureFlags: enabled.map(({ result }) => result.key), ...identity() };
  return { ...flagPart, ...config, ...DECIDE_EXTRAS };
}

/** `GET /flags/` (and `/decide/`): PostHog's minimal answer, with no token needed. */
export function minimalFlagsResponse(query: FlagsQuery): Record<string, unknown> {
  const flagPart = (query.version ?? 1) >= 2 ? v2Flags([]) : legacyFlags([]);
  return {
    ...flagPart,
    supportedCompression: ['gzip', 'gzip-js'],
    ...DECIDE_EXTRAS,
    sessionRecording: false,
  };
}

const DECIDE_EXTRAS = { config: { enable_collect_everything: true }, toolbarParams: {}, isAuthenticated: false };

/** What the legacy shapes and SDKs read as the flag's value: the variant, else whether it is on. */
const valueOf = (result: FlagResult): string | boolean => result.variant ?? result.enabled;

const v2Flags = (flags: readonly EvaluatedFlag[]) => ({
  errorsWhileComputingFlags: false,
  flags: Object.fromEntries(flags.map(({ flag, result }) => [result.key, {
    key: result.key,
    enabled: result.enabled,
    variant: result.variant,
    reason: result.reason,
    metadata: {
      id: flag.id,
      version: flag.version,
      // PostHog's flags service always sends None here (types.rs FlagDetails::create).
      description: null,
      payload: result.enabled ? result.payload : null,
      // Hoglet has no experiments.
      has_experiment: false,
    },
  }])),
  ...identity(),
});

const legacyFlags = (flags: readonly EvaluatedFlag[]) => ({
  errorsWhileComputingFlags: false,
  featureFlags: Object.fromEntries(flags.map(({ result }) => [result.key, valueOf(result)])),
  // Matched flags with a payload only.
  featureFlagPayloads: Object.fromEntries(flags.filter(({ result }) => result.enabled && result.payload !== null).map(({ result }) => [result.key, result.payload])),
  ...identity(),
});
