// PostHog's paths tests (posthog-cases.ts), each in a project of its own (helpers/posthog-cases.ts:
// events through /batch/, the query through /query/), compared with the edges PostHog's tests assert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { caseResults, prepareCase } from '../../helpers/posthog-cases.js';
import { posthogPathsCases } from './posthog-cases.js';

let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

type Edge = { source: string; target: string; value: number; average_conversion_time: number };

describe("PostHog's paths tests", () => {
  for (const c of posthogPathsCases) {
    it(c.name, async () => {
      const prepared = await prepareCase(t, c);
      const edges = (await caseResults(t, c, prepared)) as Edge[];
      const shown = (list: { source: string; target: string; value: number }[]) => list.map((e) => `${e.source} -> ${e.target}: ${e.value}`);
      if (c.partial) {
        const found = c.expected.map((e) => edges.find((edge) => edge.source === e.source && edge.target === e.target));
        expect(shown(found.map((f, i) => f ?? { ...c.expected[i]!, value: -1 }))).toEqual(shown(c.expected));
      } else {
        expect(shown(edges)).toEqual(shown(c.expected));
      }
      for (const e of c.expected) {
        if (e.average_conversion_time === undefined) continue;
        const edge = edges.find((x) => x.source === e.source && x.target === e.target)!;
        expect(edge.average_conversion_time, `${e.source} -> ${e.target}`).toBeCloseTo(e.average_conversion_time, 3);
      }
    });
  }
});
