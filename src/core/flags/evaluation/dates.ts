// Dates for is_date_before / is_date_after / is_date_exact, read as the Rust service reads them
// (property_matching.rs parse_date_string_in_tz, relative_date.rs): relative "-7d" forms from the
// project's wall clock, RFC 3339 with its offset, naive dates and datetimes in the project time zone.
import { DateTime } from 'luxon';

const RELATIVE = /^-?(\d+)([hdwmy])$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const ZONED = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?) ?([Zz]|GMT|UTC|[+-]\d{2}:?\d{2})$/;
const NAIVE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?$/;

interface Wall { year: number; month: number; day: number; hour: number; minute: number; second: number; millisecond: number }

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

const sameWall = (time: DateTime, wall: Wall): boolean => time.day === wall.day && time.hour === wall.hour && time.minute === wall.minute;

/**
 * A wall-clock time in `zone` as an instant, as chrono's `from_local_datetime` is read by the Rust
 * service: null in a spring-forward gap, the earliest instant when a fall-back repeats the time.
 */
function wallToInstant(wall: Wall, zone: string): number | null {
  const local = DateTime.fromObject(wall, { zone });
  if (!local.isValid || !sameWall(local, wall)) return null;
  // Luxon picks the later of two repeated instants; look for the same wall clock before it.
  for (const shift of [7_200_000, 3_600_000, 1_800_000]) {
    const earlier = DateTime.fromMillis(local.toMillis() - shift, { zone });
    if (sameWall(earlier, wall) && earlier.second === local.second) return earlier.toMillis();
  }
  return local.toMillis();
}

/** "-3d", "3d", "-2m"...: subtracted on the project's wall clock, months and years calendar-aware. */
function relativeDate(text: string, zone: string, now: Date): number | null {
  const match = RELATIVE.exec(text);
  if (!match) return null;
  const amount = Number(match[1]);
  if (amount >= 10_000) return null;
  const local = DateTime.fromJSDate(now, { zone });
  if (!local.isValid) return null;
  const fixed = { h: 3_600_000, d: 86_400_000, w: 604_800_000 }[match[2] as 'h' | 'd' | 'w'];
  if (fixed !== undefined) {
    // Chrono subtracts on the naive wall clock: shift it as if it were UTC, then read it back in the zone.
    const naive = DateTime.fromObject(local.toObject(), { zone: 'utc' }).toMillis() - amount * fixed;
    const back = DateTime.fromMillis(naive, { zone: 'utc' });
    return wallToInstant(back.toObject() as Wall, zone);
  }
  let year: number = local.year;
  let month: number = local.month;
  let day: number = local.day;
  for (let step = 0; step < amount; step += 1) {
    if (match[2] === 'm') {
      [year, month] = month === 1 ? [year - 1, 12] : [year, month - 1];
    } else {
      year -= 1;
    }
    day = Math.min(day, daysIn(year, month));
  }
  return wallToInstant({ year, month, day, hour: local.hour, minute: local.minute, second: local.second, millisecond: local.millisecond }, zone);
}

/** A date string as an instant (ms), or null when no form PostHog reads fits. */
export function parseDateText(text: string, zone: string, now: Date): number | null {
  const relative = relativeDate(text, zone, now);
  if (relative !== null) return relative;
  if (RFC3339.test(text)) {
    const parsed = DateTime.fromISO(text.replace(' ', 'T'), { setZone: true });
    return parsed.isValid ? parsed.toMillis() : null;
  }
  const naive = NAIVE.exec(text);
  if (naive) {
    const [, y, mo, d, h, mi, s, frac] = naive;
    if (h !== undefined && mi === undefined) return null;
    return wallToInstant({
      year: Number(y), month: Number(mo), day: Number(d), hour: Number(h ?? 0), minute: Number(mi ?? 0),
      second: Number(s ?? 0), millisecond: frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0,
    }, zone);
  }
  // PostHog falls back to a lenient parser (Rust `dateparser`): a datetime with a spaced or named
  // offset ("2022-04-05 12:34:12 +01:00", "2022-04-29 23:59:00 GMT"), other ISO forms as UTC.
  const offset = ZONED.exec(text);
  if (offset) {
    const zone = /^(z|gmt|utc)$/i.test(offset[2]!) ? 'utc' : `UTC${offset[2]!.length === 5 ? `${offset[2]!.slice(0, 3)}:${offset[2]!.slice(3)}` : offset[2]}`;
    const parsed = DateTime.fromISO(offset[1]!.replace(' ', 'T'), { zone });
    return parsed.isValid ? parsed.toMillis() : null;
  }
  const iso = DateTime.fromISO(text, { zone: 'utc' });
  return iso.isValid ? iso.toMillis() : null;
}

/** The person's side: a number (or numeric string) is epoch seconds, other strings as above. */
export function parsePropertyDate(value: unknown, zone: string, now: Date): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value * 1000 : null;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  if (trimmed !== '' && trimmed === value && Number.isFinite(Number(value))) return Number(value) * 1000;
  return parseDateText(value, zone, now);
}
