// PostHog's stickiness tests (posthog-cases.ts), each in a project of its own (helpers/posthog-cases.ts:
// events through /batch/, the query through /query/), compared with the numbers PostHog's tests assert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { caseResults, prepareCase } from '../../helpers/posthog-cases.js';
import { posthogStickinessCases } from './posthog-cases.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

describe("PostHog's stickiness tests", () => {
  for (const c of posthogStickinessCases) {
    it(c.name, async () => {
      const prepared = await prepareCase(t, c);
      const items = await caseResults(t, c, prepared);
      // Every field the case gives must match (partial cases give what PostHog checks and what its rules imply).
      expect(items.map((item) => ({ label: item.label, compare_label: item.compare_label, data: item.data })))
        .toEqual(c.expected.map((e) => ({ label: e.label, compare_label: e.compare_label, data: e.data })));
      c.expected.forEach((e, i) => {
        const item = items[i];
        if (e.count !== undefined) expect(item.count, `${e.label} count`).toBe(e.count);
        if (e.days) expect(item.days).toEqual(e.days);
        if (e.labels) expect(item.labels).toEqual(e.labels);
      });
    });
  }
});
