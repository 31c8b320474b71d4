// Revocation through the real authenticator and the real key store: a key read just before it was
// revoked elsewhere must not stay valid once this process has seen the revocation.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { KeyAuthenticator } from '../../../src/core/auth/authenticator.js';
import { createAccountServices, type AccountServices } from '../../../src/services.js';
import { ApiKeysRepository, type PersonalApiKey } from '../../../src/storage/meta/repositories/api-keys.js';
import { freshPostgresSchema, META_STORES } from '../../helpers/stores.js';

/**
 * The real repository; a look-up can be held after it has read the store (as a slow query or a
 * busy pool would hold it), so the test decides when its answer arrives.
 */
class HeldApiKeys extends ApiKeysRepository {
  hold: { started: () => void; release: Promise<void> } | null = null;

  override async findBySecureValue(secureValue: string): Promise<PersonalApiKey | undefined> {
    const found = await super.findBySecureValue(secureValue);
    const hold = this.hold;
    if (hold) {
      this.hold = null;
      hold.started();
      await hold.release;
    }
    return found;
  }
}

describe.each(META_STORES)('KeyAuthenticator revocation on %s', (store) => {
  let dataDir: string;
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>> | null = null;
  let services: AccountServices;
  /** A second process over the same store, as `hoglet keys revoke` opens. */
  let cli: AccountServices;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-auth-'));
    schema = store === 'postgres' ? await freshPostgresSchema() : null;
    const config = loadConfig({ dataDir }, schema ? { DATABASE_URL: schema.url } : {});
    services = await createAccountServices(config);
    cli = await createAccountServices(config);
    await services.accounts.bootstrap({ email: 'keys@example.com', organizationName: 'Keys', projectName: 'Default project', scopes: ['*'] });
  });
  afterAll(async () => {
    await cli.close();
    await services.close();
    await schema?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('a read that started before another process revoked the key cannot revive it', async () => {
    const keys = new HeldApiKeys(services.meta.db);
    // Reads the revocation epoch on every request, so "the next check" needs no waiting.
    const authenticator = new KeyAuthenticator(keys, { epochCheckIntervalMs: 0 });
    const { key, value } = await services.accounts.createKey('keys@example.com', ['*'], 'race');
    const { value: otherValue } = await services.accounts.createKey('keys@example.com', ['*'], 'bystander');

    let started!: () => void;
    const readDone = new Promise<void>((resolve) => (started = resolve));
    let release!: () => void;
    keys.hold = { started, release: new Promise<void>((resolve) => (release = resolve)) };

    // Request 1 reads the key while it is valid, and is held there.
    const first = authenticator.authenticate(value);
    await readDone;
    // The CLI revokes it (delete + epoch bump); request 2 sees the new epoch and flushes.
    expect(await cli.accounts.revokeKey(key.id)).toBe(true);
    expect(await authenticator.authenticate(otherValue)).not.toBeNull();
    // Request 1 finishes with what it read before the revocation.
    release();
    expect((await first)?.keyId).toBe(key.id);

    // From now on the key is refused.
    expect(await authenticator.authenticate(value)).toBeNull();
  });
});
