// The queue background calculations wait in: a few at a time, in order, and a job a client comes to
// wait for can start at once without letting the queue run more than its limit afterwards.
import { describe, expect, it } from 'vitest';
import { BackgroundQueue } from '../../src/core/queries/background-queue.js';

/** A job that runs until its `finish` is called, recording when it started. */
function job(started: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => { finish = resolve; });
  return { run: async () => { started.push(name); await done; return name; }, finish };
}
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('BackgroundQueue', () => {
  it('runs at most its concurrency at once, the others in the order they came', async () => {
    const queue = new BackgroundQueue(2);
    const started: string[] = [];
    const jobs = ['a', 'b', 'c', 'd'].map((name) => job(started, name));
    const results = jobs.map((j) => queue.add(j.run).result);
    await settle();
    expect(started).toEqual(['a', 'b']);
    expect([queue.active, queue.queued]).toEqual([2, 2]);
    jobs[1]!.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    for (const j of jobs) j.finish();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c', 'd']);
    expect([queue.active, queue.queued]).toEqual([0, 0]);
  });

  it('starts a promoted job at once, and then stays within its limit', async () => {
    const queue = new BackgroundQueue(1);
    const started: string[] = [];
    const [a, b, c] = ['a', 'b', 'c'].map((name) => job(started, name));
    queue.add(a!.run);
    const promoted = queue.add(b!.run);
    queue.add(c!.run);
    promoted.promote();
    promoted.promote();
    await settle();
    expect(started).toEqual(['a', 'b']);
    // One finishing leaves one running: the limit, so c still waits.
    a!.finish();
    await settle();
    expect(started).toEqual(['a', 'b']);
    b!.finish();
    await settle();
    expect(started).toEqual(['a', 'b', 'c']);
    c!.finish();
  });

  it('passes a failing job\'s error to its caller and goes on with the next', async () => {
    const queue = new BackgroundQueue(1);
    const failing = queue.add(async () => { throw new Error('boom'); }).result;
    const next = queue.add(async () => 'next').result;
    await expect(failing).rejects.toThrow('boom');
    expect(await next).toBe('next');
  });
});
