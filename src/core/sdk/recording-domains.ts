// PostHog's recording domains (`recording_domains`): when a project lists any, only pages on those
// hosts (by the request's Origin or Referer; `*` matches any run of characters) and PostHog's
// mobile SDKs are told to record. The built config carries the list under
// `sessionRecording.domains`; every answer drops it first, as PostHog's
// sanitize_config_for_public_cdn does.
import type { RemoteConfig } from './remote-config.js';

export interface RecordingClient {
  origin: string | undefined;
  referer: string | undefined;
  userAgent: string | undefined;
}

const MOBILE_SDKS = ['posthog-android', 'posthog-ios', 'posthog-react-native', 'posthog-flutter'];

/** The config as a client sees it: no `domains`, and recording off on a page outside them. */
export function configForClient(config: RemoteConfig, client: RecordingClient): RemoteConfig {
  const recording = config.sessionRecording;
  if (!recording || typeof recording !== 'object' || !('domains' in recording)) return config;
  const { domains, ...rest } = recording as Record<string, unknown>;
  const permitted = !Array.isArray(domains) || domains.length === 0 || onPermittedDomain(domains as unknown[], client);
  return { ...config, sessionRecording: permitted ? rest : false };
}

function onPermittedDomain(domains: unknown[], client: RecordingClient): boolean {
  if (client.userAgent && MOBILE_SDKS.some((sdk) => client.userAgent!.includes(sdk))) return true;
  return hostAllowed(domains, hostOf(client.origin)) || hostAllowed(domains, hostOf(client.referer));
}

function hostAllowed(domains: unknown[], host: string | null): boolean {
  if (!host) return false;
  return domains.some((domain) => {
    const allowed = hostOf(domain);
    if (!allowed) return false;
    if (!allowed.includes('*')) return allowed === host;
    const pattern = allowed.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
    return new RegExp(`^${pattern}$`).test(host);
  });
}

/** Python's urlparse(url).hostname: lower-cased, null for anything without a scheme and host. */
function hostOf(url: unknown): string | null {
  if (typeof url !== 'string' || url === '') return null;
  try {
    return new URL(url).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}
