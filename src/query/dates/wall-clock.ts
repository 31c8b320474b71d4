// PostHog does its date arithmetic on zone-aware Python datetimes that share one tzinfo, and Python
// computes such arithmetic (and differences) on the naive wall-clock value. Luxon instead adds hours
// in absolute time. To reproduce PostHog across DST changes, arithmetic goes through a "naive"
// DateTime: the same wall-clock fields, held in UTC where no hour is skipped or repeated.
import { DateTime } from 'luxon';

/** The wall-clock fields of `t` as a UTC DateTime (a naive datetime). */
export function toNaive(t: DateTime): DateTime {
  return t.setZone('utc', { keepLocalTime: true });
}

/** A naive datetime placed back in `zone` (a time inside a spring-forward gap moves forward, as in Python). */
export function fromNaive(naive: DateTime, zone: string): DateTime {
  return naive.setZone(zone, { keepLocalTime: true });
}

/** `to - from` in wall-clock milliseconds (Python's same-tzinfo subtraction). */
export function wallDiffMs(from: DateTime, to: DateTime): number {
  return toNaive(to).toMillis() - toNaive(from).toMillis();
}

/** `t + ms` in wall-clock time, staying in t's zone. */
export function wallPlusMs(t: DateTime, ms: number, zone: string): DateTime {
  return fromNaive(toNaive(t).plus({ milliseconds: ms }), zone);
}

/** Python's datetime.replace for time fields: sets wall-clock fields, keeps the zone. */
export function wallSet(
  t: DateTime,
  fields: { hour?: number; minute?: number; second?: number; millisecond?: number },
  zone: string,
): DateTime {
  return fromNaive(toNaive(t).set(fields), zone);
}
