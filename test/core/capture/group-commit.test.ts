// The group committer on its own: many submissions become one flush; nobody is answered before
// their flush returns; slow or failing flushes and overload become 503s.
import { describe, expect, it } from 'vitest';
import { GroupCommitter } from '../../../src/core/capture/group-commit.js';
import { InvalidPayloadError } from '../../../src/core/capture/capture-errors.js';
import { ServiceUnavailableError } from '../../../src/errors.js';
import type { WriteFailure } from '../../../src/storage/events/write-failure.js';

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

  describe('a flush refused for its content', () => {
    /** A store that refuses any write holding a negative number, the way ChDB refuses a lone surrogate. */
    function poisonable(kind: WriteFailure) {
      const writes: number[][] = [];
      const committer = new GroupCommitter<number>(
        async (items) => {
          writes.push(items);
          if (items.some((n) => n < 0)) throw new Error('refused');
        },
        () => 1,
        { ...options, classify: async () => kind },
      );
      return { committer, writes };
    }

    it('is split until the culprits are found: they alone get a 400, everyone else is stored', async () => {
      const { committer, writes } = poisonable('content');
      const items = Array.from({ length: 32 }, (_, i) => (i === 5 || i === 22 ? -i : i));
      const results = await Promise.allSettled(items.map((n) => committer.submit(n)));
      results.forEach((result, i) => {
        if (items[i]! < 0) {
          expect(result.status).toBe('rejected');
          expect((result as PromiseRejectedResult).reason).toBeInstanceOf(InvalidPayloadError);
        } else {
          expect(result.status, `item ${i}`).toBe('fulfilled');
        }
      });
      const stored = writes.filter((w) => w.every((n) => n >= 0)).flat().sort((a, b) => a - b);
      expect(stored).toEqual(items.filter((n) => n >= 0).sort((a, b) => a - b));
      // Two culprits among 32 cost a few writes per halving, not one write per request.
      expect(writes.length).toBeLessThanOrEqual(1 + 2 * 2 * Math.log2(32));
    });

    it('blames a request only when the store took others: a store refusing everything is down (503)', async () => {
      const committer = new GroupCommitter<number>(async () => Promise.reject(new Error('refused')), () => 1, {
        ...options,
        classify: async () => 'maybe_content',
      });
      const results = await Promise.allSettled([1, 2, 3].map((n) => committer.submit(n)));
      for (const result of results) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(ServiceUnavailableError);
    });

    it('blames the suspect that failed while others were stored', async () => {
      const { committer } = poisonable('maybe_content');
      const results = await Promise.allSettled([1, -2, 3].map((n) => committer.submit(n)));
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(InvalidPayloadError);
    });

    it('is not split when the store is at fault: one write, everyone gets a 503', async () => {
      const { committer, writes } = poisonable('store');
      const results = await Promise.allSettled([1, -2, 3].map((n) => committer.submit(n)));
      expect(writes).toHaveLength(1);
      for (const result of results) expect((result as PromiseRejectedResult).reason).toBeInstanceOf(ServiceUnavailableError);
    });
  });
});
