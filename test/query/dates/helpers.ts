// Shared fixtures for the date-range tests: a fixed clock and compact renderings of results.
import { DateTime } from 'luxon';
import { expect } from 'vitest';
import { ValidationError } from '../../../src/errors.js';
import type { ProjectClock, ResolvedDateRange } from '../../../src/query/dates/index.js';

/** Friday 2020-01-24 13:45:30.500 UTC unless told otherwise. */
export const NOW = '2020-01-24T13:45:30.500Z';

export function clockAt(now = NOW, timezone = 'UTC', weekStartDay: 0 | 1 = 0): ProjectClock {
  return { timezone, weekStartDay, now: DateTime.fromISO(now, { setZone: true }) };
}

/** ISO with offset, milliseconds included: the zone is part of what we assert. */
export const iso = (t: DateTime) => t.toISO();

export function summary(r: ResolvedDateRange) {
  return { from: iso(r.dateFrom), to: iso(r.dateTo), eventsFrom: iso(r.eventsFrom), count: r.buckets.length };
}

export function expectValidationError(fn: () => unknown, attr: string, detail?: RegExp): void {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(ValidationError);
  const error = caught as ValidationError;
  expect(error.status).toBe(400);
  expect(error.attr).toBe(attr);
  if (detail) expect(error.detail).toMatch(detail);
}
