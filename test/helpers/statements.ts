// Counts the event-store statements a piece of work runs (spying only: the real store answers),
// so tests can tell a cached answer from a calculated one.
import { vi } from 'vitest';
import type { EventStore } from '../../src/storage/events/event-store.js';

export async function statementsDuring<T>(store: EventStore, work: () => Promise<T>): Promise<{ value: T; statements: number }> {
  const spy = vi.spyOn(store, 'query');
  try {
    const value = await work();
    // Capture's inserter reads on its own lanes behind acknowledged events; only the query lane counts.
    const reads = spy.mock.calls.filter(([, , options]) => (options?.lane ?? 'query') === 'query');
    return { value, statements: reads.length };
  } finally {
    spy.mockRestore();
  }
}
