// PostHog's lifecycle tests (posthog-cases.ts), each in a project of its own (helpers/posthog-cases.ts:
// events through /batch/, the query through /query/), compared with the numbers PostHog's tests assert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { caseResults, prepareCase } from '../../helpers/posthog-cases.js';
import { posthogLifecycleCases } from './posthog-cases.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

describe("PostHog's lifecycle tests", () => {
  for (const c of posthogLifecycleCases) {
    it(c.name, async () => {
      const persons = Object.fromEntries(Object.entries(c.persons ?? {}).flatMap(([id, p]) => (p.properties ? [[id, p.properties]] : [])));
      const prepared = await prepareCase(t, { ...c, persons });
      const items = await caseResults(t, c, prepared);
      expect(items.map((item) => item.status)).toEqual(['new', 'returning', 'resurrecting', 'dormant']);
      for (const item of items) expect(item.count).toBe(item.data.reduce((a: number, b: number) => a + b, 0));
      const expected = c.partial ? c.expected : c.expected;
      if (!c.partial) expect(items.map((item) => item.status)).toEqual(c.expected.map((e) => e.status));
      for (const e of expected) {
        const item = items.find((i) => i.status === e.status)!;
        expect(item.data, e.status).toEqual(e.data);
        if (e.days) expect(item.days, `${e.status} days`).toEqual(e.days);
        if (e.labels) expect(item.labels, `${e.status} labels`).toEqual(e.labels);
        if (e.label) expect(item.label).toBe(e.label);
        if (e.count !== undefined) expect(item.count).toBe(e.count);
        if (e.action) expect(item.action, `${e.status} action`).toEqual(e.action);
      }
    });
  }
});
