// The group committer on its own: many submissions become one flush; nobody is answered before
// their flush returns; slow or failing flushes and overload become 503s.
import { describe, expect, it } from 'vitest';
import { GroupCommitter } from '../../../src/core/capture/group-commit.js';
import { ServiceUnavailableError } from '../../../src/errors.js';

const options = { maxBatchItems: 1_000, maxQueuedItems: 5_000, timeoutMs: 2_000 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('group commit', () => {
  it('writes concurrent submissions together and answers each only after its write', async () => {
    const flushes: number[][] = [];
    let written = 0;
    const committer = new GroupCommitter<number[]>(
      async (items) => {
        await sleep(20);
        flushes.push(items.flat());
        written += items.flat().length;
      },
      (item) => item.length,
      options,
    );
    const answeredAfter: number[] = [];
    const submissions = Array.from({ length: 50 }, (_, i) =>
      committer.submit([i, i]).then(() => answeredAfter.push(written)),
    );
    await Promise.all(submissions);
    expect(flushes.length).toBeLessThanOrEqual(2);
    expect(flushes.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => [i, i]).flat());
    // Every answer came after a write that included it.
    for (const seen of answeredAfter) expect(seen).toBeGreaterThan(0);
  });

  it('keeps one flush within maxBatchItems', async () => {
    const sizes: number[] = [];
    const committer = new GroupCommitter<number[]>(async (items) => void sizes.push(items.flat().length), (i) => i.length, options);
    await Promise.all(Array.from({ length: 30 }, () => committer.submit(new Array(100).fill(0))));
    expect(Math.max(...sizes)).toBeLessThanOrEqual(1_000);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(3_000);
  });

  it('answers 503 to everyone in a failed flush', async () => {
    const committer = new GroupCommitter<number>(async () => Promise.reject(new Error('disk full')), () => 1, options);
    const results = await Promise.allSettled([committer.submit(1), committer.submit(2)]);
    for (const result of results) {
      expect(result.status).toBe('rejected');
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(ServiceUnavailableError);
    }
  });

  it('answers 503 when the store is too slow, and never writes what timed out while still queued', async () => {
    const written: number[] = [];
    const committer = new GroupCommitter<number>(
      async (items) => {
        await sleep(300);
        written.push(...items);
      },
      () => 1,
      { ...options, timeoutMs: 100 },
    );
    const first = committer.submit(1);
    await sleep(5); // the first flush has started
    const second = committer.submit(2); // waits behind it, times out while queued
    await expect(first).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(second).rejects.toBeInstanceOf(ServiceUnavailableError);
    await committer.drain();
    // The first was already being written (a retry is then de-duplicated by uuid); the second never was.
    expect(written).toEqual([1]);
  });

  it('refuses new work at once when too much is waiting', async () => {
    let release = () => {};
    const committer = new GroupCommitter<number[]>(
      () => new Promise<void>((resolve) => (release = resolve)),
      (item) => item.length,
      { ...options, maxQueuedItems: 100 },
    );
    const inFlight = committer.submit(new Array(50).fill(0));
    await sleep(5);
    const queued = committer.submit(new Array(80).fill(0));
    await expect(committer.submit(new Array(80).fill(0))).rejects.toBeInstanceOf(ServiceUnavailableError);
    release();
    await inFlight;
    await sleep(5);
    release();
    await queued;
  });
});
