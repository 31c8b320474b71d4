// The epoch cache under interleavings fixed by hand (promises the test resolves), never by timing.
import { describe, expect, it } from 'vitest';
import { EpochCache } from '../../src/core/epoch-cache.js';

/** A promise the test settles when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A load that says when it has started and finishes when the test releases it. */
function heldLoad<T>(value: T) {
  const started = deferred<void>();
  const release = deferred<void>();
  const load = async () => {
    started.resolve();
    await release.promise;
    return value;
  };
  return { load, started: started.promise, release: () => release.resolve() };
}

describe('EpochCache', () => {
  it('keeps a value until the shared epoch moves', async () => {
    let epoch = 1;
    const cache = new EpochCache<string>(async () => epoch, { max: 10, checkIntervalMs: 0 });
    let loads = 0;
    const load = async () => `v${++loads}`;
    expect(await cache.get('k', load)).toBe('v1');
    expect(await cache.get('k', load)).toBe('v1');
    epoch = 2;
    expect(await cache.get('k', load)).toBe('v2');
  });

  it('never stores a load that started before the epoch moved and ended after the flush', async () => {
    let epoch = 1;
    const cache = new EpochCache<string>(async () => epoch, { max: 10, checkIntervalMs: 0 });
    // A request reads the key while it is still valid ...
    const stale = heldLoad('valid');
    const pending = cache.get('key', stale.load);
    await stale.started;
    // ... another process revokes it and bumps the epoch, and a second request sees the new epoch ...
    epoch = 2;
    expect(await cache.get('other', async () => 'x')).toBe('x');
    // ... and only then does the first read finish.
    stale.release();
    expect(await pending).toBe('valid');
    // The revoked state must be read again, not served from what the old read stored.
    expect(await cache.get('key', async () => 'revoked')).toBe('revoked');
  });

  it('never stores a load that was running when this process cleared the cache', async () => {
    const cache = new EpochCache<string>(async () => 1, { max: 10, checkIntervalMs: 60_000 });
    const stale = heldLoad('old token');
    const pending = cache.get('token', stale.load);
    await stale.started;
    cache.clear();
    stale.release();
    await pending;
    expect(await cache.get('token', async () => 'new token')).toBe('new token');
  });

  it('stores a load that no flush overtook, so the store is read once', async () => {
    const cache = new EpochCache<string>(async () => 1, { max: 10, checkIntervalMs: 60_000 });
    const first = heldLoad('value');
    const pending = cache.get('k', first.load);
    await first.started;
    first.release();
    await pending;
    let reads = 0;
    expect(await cache.get('k', async () => `read ${++reads}`)).toBe('value');
    expect(reads).toBe(0);
  });
});
