// Resolves a presented personal API key to a Principal without a database round trip per request:
// the SHA-256 of the key indexes a bounded cache, and a revocation epoch (bumped by any process
// that revokes a key) flushes it, checked at most once per second.
import { LRUCache } from 'lru-cache';
import type { ApiKeysRepository, PersonalApiKey } from '../../storage/meta/repositories/api-keys.js';
import { hashPersonalApiKey, nowIso } from '../tokens.js';
import type { Principal } from './principal.js';

const EPOCH_CHECK_INTERVAL_MS = 1000;
const LAST_USED_RESOLUTION_MS = 60 * 60 * 1000;

interface CachedKey {
  principal: Principal | null;
  lastUsedAt: number;
}

export interface AuthenticatorOptions {
  maxCachedKeys?: number;
  onBackgroundError?: (error: unknown) => void;
}

export class KeyAuthenticator {
  private readonly cache: LRUCache<string, CachedKey>;
  private epoch = -1;
  private epochCheckedAt = 0;
  private epochRefresh: Promise<void> | null = null;

  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly options: AuthenticatorOptions = {},
  ) {
    this.cache = new LRUCache({ max: options.maxCachedKeys ?? 10_000 });
  }

  /** The principal of a valid key, or null for an unknown (or revoked) one. */
  async authenticate(presentedKey: string): Promise<Principal | null> {
    await this.refreshEpochIfDue();
    const hash = hashPersonalApiKey(presentedKey);
    let cached = this.cache.get(hash);
    if (!cached) {
      const key = await this.keys.findBySecureValue(hash);
      cached = {
        principal: key ? toPrincipal(key) : null,
        lastUsedAt: key?.last_used_at ? Date.parse(key.last_used_at) : 0,
      };
      this.cache.set(hash, cached);
    }
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

  private refreshEpochIfDue(): Promise<void> {
    if (Date.now() - this.epochCheckedAt < EPOCH_CHECK_INTERVAL_MS) return Promise.resolve();
    this.epochRefresh ??= this.keys
      .epoch()
      .then((epoch) => {
        if (epoch !== this.epoch) this.cache.clear();
        this.epoch = epoch;
        this.epochCheckedAt = Date.now();
      })
      .finally(() => {
        this.epochRefresh = null;
      });
    return this.epochRefresh;
  }
}

function toPrincipal(key: PersonalApiKey): Principal {
  return Object.freeze({
    userId: key.user_id,
    keyId: key.id,
    scopes: Object.freeze([...key.scopes]),
    scopedOrganizations: key.scoped_organizations?.length ? Object.freeze([...key.scoped_organizations]) : null,
    scopedTeams: key.scoped_teams?.length ? Object.freeze([...key.scoped_teams]) : null,
  });
}
