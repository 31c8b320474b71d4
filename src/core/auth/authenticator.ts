// Resolves a presented personal API key to a Principal without a database round trip per request:
// the SHA-256 of the key indexes a bounded cache, and a revocation epoch (bumped by any process
// that revokes a key) flushes it, checked at most once per second.
import type { ApiKeysRepository, PersonalApiKey } from '../../storage/meta/repositories/api-keys.js';
import { EpochCache } from '../epoch-cache.js';
import { hashPersonalApiKey, nowIso } from '../tokens.js';
import type { KeyPrincipal } from './principal.js';

const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;

interface CachedKey {
  principal: KeyPrincipal | null;
  lastUsedAt: number;
}

export interface AuthenticatorOptions {
  maxCachedKeys?: number;
  /** How often the revocation epoch is read (default once a second). */
  epochCheckIntervalMs?: number;
  onBackgroundError?: (error: unknown) => void;
}

export class KeyAuthenticator {
  private readonly cache: EpochCache<CachedKey>;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly options: AuthenticatorOptions = {},
  ) {
    this.cache = new EpochCache(() => keys.epoch(), {
      max: options.maxCachedKeys ?? 10_000,
      ...(options.epochCheckIntervalMs === undefined ? {} : { checkIntervalMs: options.epochCheckIntervalMs }),
    });
  }

  /** The principal of a valid key, or null for an unknown (or revoked) one. */
  async authenticate(presentedKey: string): Promise<KeyPrincipal | null> {
    const hash = hashPersonalApiKey(presentedKey);
    const cached = await this.cache.get(hash, async () => {
      const key = await this.keys.findBySecureValue(hash);
      return {
        principal: key ? toPrincipal(key) : null,
        lastUsedAt: key?.last_used_at ? Date.parse(key.last_used_at) : 0,
      };
    });
    if (cached.principal) this.recordUse(cached);
    return cached.principal;
  }

  /** Forget everything now (this process revoked or changed a key). */
  invalidate(): void {
    this.cache.clear();
  }

  private recordUse(cached: CachedKey): void {
    const now = Date.now();
    if (now - cached.lastUsedAt < LAST_USED_RESOLUTION_MS) return;
    cached.lastUsedAt = now;
    // Bookkeeping only: never hold up or fail the request for it.
    this.keys.touchLastUsed(cached.principal!.keyId, nowIso()).catch((error) => this.options.onBackgroundError?.(error));
  }
}

function toPrincipal(key: PersonalApiKey): KeyPrincipal {
  return Object.freeze({
    kind: 'key',
    userId: key.user_id,
    keyId: key.id,
    scopes: Object.freeze([...key.scopes]),
    scopedOrganizations: key.scoped_organizations?.length ? Object.freeze([...key.scoped_organizations]) : null,
    scopedTeams: key.scoped_teams?.length ? Object.freeze([...key.scoped_teams]) : null,
  });
}
