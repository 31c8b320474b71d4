// PostHog's retention tests (posthog-cases.ts), each in a project of its own (helpers/posthog-cases.ts:
// events through /batch/, the query through /query/), compared with the numbers PostHog's tests assert.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { caseResults, prepareCase } from '../../helpers/posthog-cases.js';
import { posthogRetentionCases } from './posthog-cases.js';


let t: TestApp;
beforeAll(async () => { t = await createTestApp('sqlite'); });
afterAll(() => t.close());

type Row = { label: string; date: string; breakdown_value?: string | null; values: { count: number; label: string }[] };
const key = (row: { label: string; breakdown_value?: string | null }) => `${row.breakdown_value ?? ''}|${row.label}`;

describe("PostHog's retention tests", () => {
  for (const c of posthogRetentionCases) {
    it(c.name, async () => {
      const prepared = await prepareCase(t, c);
      const rows = (await caseResults(t, c, prepared)) as Row[];
      const counts = (row: Row) => row.values.map((v) => v.count);
      if (c.breakdownValues) expect(new Set(rows.map((r) => r.breakdown_value))).toEqual(new Set(c.breakdownValues));
      for (const absent of c.absentOrZero ?? []) {
        const row = rows.find((r) => key(r) === key(absent));
        if (row) expect(row.values[0]!.count, key(absent)).toBe(0);
      }
      if (c.partial) {
        for (const expected of c.expected) {
          const row = rows.find((r) => key(r) === key(expected));
          expect(row, key(expected)).toBeDefined();
          expect(counts(row!).slice(0, expected.values.length), key(expected)).toEqual(expected.values);
          if (expected.date) expect(row!.date).toBe(expected.date);
        }
        return;
      }
      expect(rows.map((r) => ({ key: key(r), values: counts(r) }))).toEqual(c.expected.map((e) => ({ key: key(e), values: e.values })));
      c.expected.forEach((e, i) => {
        if (e.date) expect(rows[i]!.date, key(e)).toBe(e.date);
        expect(rows[i]!.values.map((v) => v.label)).toEqual(e.values.map((_, k) => `${e.label.split(' ')[0]} ${k}`));
      });
    });
  }
});
