// PostHog's funnel correlation tests (posthog-cases.ts), each in a project of its own
// (helpers/posthog-cases.ts: events through /batch/, the query through /query/), compared with the
// items PostHog's tests assert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { caseResults, prepareCase } from '../../helpers/posthog-cases.js';
import { posthogCorrelationCases } from './posthog-cases.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

type Item = { event: { event: string }; success_count: number; failure_count: number; odds_ratio: number; correlation_type: string };

describe("PostHog's funnel correlation tests", () => {
  for (const c of posthogCorrelationCases) {
    it(c.name, async () => {
      const prepared = await prepareCase(t, c);
      // Hoglet refuses a funnel of fewer than two steps (PostHog answers no events for none).
      const steps = ((c.query.source as { source: { series?: unknown[] } }).source.series ?? []).length;
      if (steps < 2) {
        const res = await t.request(prepared.who.key, { method: 'POST', url: `/api/projects/${prepared.who.projectId}/query/`, payload: { query: prepared.query } });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ type: 'validation_error', attr: 'query.source.source.series' });
        return;
      }
      const result = (await caseResults(t, c, prepared)) as unknown as { events: Item[]; skewed: boolean };
      const shown = (items: { event: string; success_count: number; failure_count: number; correlation_type: string }[]) =>
        items.map((i) => `${i.event} ${i.correlation_type} ${i.success_count}/${i.failure_count}`);
      const actual = result.events.map((i) => ({ ...i, event: i.event.event }));
      if (c.partial) {
        for (const e of c.expected) expect(shown(actual)).toContain(shown([e])[0]);
      } else {
        // Items of equal odds have no defined order in PostHog: compare those as sets.
        const key = (items: { odds_ratio: number; correlation_type: string }[]) => items.map((i) => `${i.correlation_type}:${i.odds_ratio.toFixed(7)}`);
        expect(key(actual)).toEqual(key(c.expected));
        expect(shown(actual).sort()).toEqual(shown(c.expected).sort());
      }
      for (const e of c.expected) {
        const item = actual.find((i) => i.event === e.event);
        if (item) expect(item.odds_ratio, e.event).toBeCloseTo(e.odds_ratio, 7);
      }
      if (c.expectedSkewed !== undefined) expect(result.skewed).toBe(c.expectedSkewed);
      // Autocapture items carry their event type and the elements parsed from the chain.
      for (const [name, definition] of Object.entries(c.eventDefinitions ?? {})) {
        const item = result.events.find((i) => i.event.event === name);
        expect(item?.event, name).toEqual({ event: name, ...definition });
      }
    });
  }
});
