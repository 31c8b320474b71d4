// The answers of `/flags/` and `/decide/` in each version PostHog's SDKs know, for a project with
// no feature flags (Hoglet has none yet): the flag part is always empty, never an error.
// Shapes and version mapping: PostHog `rust/feature-flags/src/api/types.rs` (FlagsResponse,
// LegacyFlagsResponse, DecideV1Response, DecideV2Response) and `api/endpoint.rs`.
import { randomUUID } from 'node:crypto';
import type { RemoteConfig } from './remote-config.js';

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
export function flagsResponse(query: FlagsQuery, config: RemoteConfig): Record<string, unknown> {
  const defaulted = query.version === undefined && query.config === undefined;
  const version = defaulted ? 2 : (query.version ?? 1);
  const withConfig = defaulted || query.config === true;
  const flagPart = version >= 2 ? v2Flags() : legacyFlags();
  return withConfig ? { ...flagPart, ...config } : flagPart;
}

/**
 * `POST /decide/`: always with the config, plus the keys older SDKs read from decide
 * (`config.enable_collect_everything`, `toolbarParams`, `isAuthenticated`). v1 (or missing, or
 * unknown) lists active flag keys, v2 maps them, v3 is the legacy /flags shape, v>=4 the current one.
 */
export function decideResponse(query: FlagsQuery, config: RemoteConfig): Record<string, unknown> {
  const version = query.version ?? 1;
  let flagPart: Record<string, unknown>;
  if (version >= 4) flagPart = v2Flags();
  else if (version === 3) flagPart = legacyFlags();
  else if (version === 2) flagPart = { featureFlags: {}, ...identity() };
  else flagPart = { featureFlags: [], ...identity() };
  return { ...flagPart, ...config, ...DECIDE_EXTRAS };
}

/** `GET /flags/` (and `/decide/`): PostHog's minimal answer, with no token needed. */
export function minimalFlagsResponse(query: FlagsQuery): Record<string, unknown> {
  const flagPart = (query.version ?? 1) >= 2 ? v2Flags() : legacyFlags();
  return {
    ...flagPart,
    supportedCompression: ['gzip', 'gzip-js'],
    ...DECIDE_EXTRAS,
    sessionRecording: false,
  };
}

const DECIDE_EXTRAS = { config: { enable_collect_everything: true }, toolbarParams: {}, isAuthenticated: false };

const v2Flags = () => ({ errorsWhileComputingFlags: false, flags: {}, ...identity() });

const legacyFlags = () => ({ errorsWhileComputingFlags: false, featureFlags: {}, featureFlagPayloads: {}, ...identity() });
