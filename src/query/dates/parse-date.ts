// Parses one date string the way PostHog's relative_date_parse_with_delta_mapping does (reference
// §1.1), except that input PostHog silently reads as "now" (garbage) is rejected with a
// ValidationError naming the field.
import { DateTime } from 'luxon';
import { ValidationError } from '../../errors.js';
import { fromNaive } from './wall-clock.js';

/** Years outside this range are refused: nothing useful is there and it bounds bucket counts. */
export const MIN_YEAR = 1970;
export const MAX_YEAR = 2200;

/**
 * PostHog's delta mapping: plural keys shift (subtracted from now), singular keys set a wall-clock
 * field. `weekStart`/`quarterStart` are our additions for wStart/qStart (newer PostHog's "This
 * week"/"This quarter"); the reference version ignores positions on w and q.
 */
export interface DeltaMapping {
  years?: number;
  months?: number;
  weeks?: number;
  days?: number;
  hours?: number;
  minutes?: number;
  seconds?: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
  weekStart?: true;
  quarterStart?: true;
}

export interface ParsedDate {
  /** In the project timezone. */
  value: DateTime;
  /** null for an absolute (ISO) date; the relative mapping otherwise (may be empty, e.g. "d"). */
  delta: DeltaMapping | null;
  position: 'Start' | 'End' | null;
}

export interface ParseDateOptions {
  /** Field named in the ValidationError. */
  attr: string;
  /** Reference instant for relative strings; defaults to clock.now. */
  now?: DateTime;
  /** PostHog's always_truncate: relative results go to the start of the hour (hour deltas) or day. */
  alwaysTruncate?: boolean;
  /** team.human_friendly_comparison_periods (compare_to only): "m" = 4 weeks, "y" = 52 weeks (× N). */
  humanFriendlyComparisonPeriods?: boolean;
}

export interface DateClock {
  timezone: string;
  weekStartDay: 0 | 1;
  now: DateTime;
}

// YYYY-M-D or YYYY-MM-DD, optionally followed by T/space and hh[:mm[:ss[.fraction]]] and an offset.
const ISO =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ](\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

// PostHog searches for this anywhere in the string; we require the whole string to match.
// Kinds: h hours, d days, w weeks, m months, M minutes, s seconds, q quarters, y years.
// (PostHog also accepts H/D/W/Q/Y and applies no shift; we reject those as almost surely typos.)
const RELATIVE = /^-?(\d{1,9})?([hdwmMsqy])(Start|End)?$/;

const SHOWN_INPUT_LIMIT = 100;

function invalid(input: string, attr: string, why?: string): ValidationError {
  const shown = input.length > SHOWN_INPUT_LIMIT ? `${input.slice(0, SHOWN_INPUT_LIMIT)}…` : input;
  return new ValidationError(
    why ??
      `Invalid date "${shown}": expected an ISO date (2020-01-31, 2020-01-31T12:00:00, with an optional offset) ` +
        'or a relative date such as -7d, -24h, -1w, -3m, -1y, dStart, -1dStart, mStart or yStart.',
    attr,
  );
}

function outOfRange(input: string, attr: string): ValidationError {
  const shown = input.slice(0, SHOWN_INPUT_LIMIT);
  return invalid(input, attr, `Date "${shown}" is out of range (years ${MIN_YEAR}–${MAX_YEAR}).`);
}

function checkYear(value: DateTime, input: string, attr: string): DateTime {
  if (!value.isValid || value.year < MIN_YEAR || value.year > MAX_YEAR) throw outOfRange(input, attr);
  return value;
}

function parseIso(match: RegExpMatchArray, input: string, zone: string, attr: string): DateTime {
  const [, y, mo, d, h, mi, s, frac, offset] = match;
  const fields = {
    year: Number(y),
    month: Number(mo),
    day: Number(d),
    hour: h === undefined ? 0 : Number(h),
    minute: mi === undefined ? 0 : Number(mi),
    second: s === undefined ? 0 : Number(s),
    millisecond: frac === undefined ? 0 : Number(frac.padEnd(3, '0').slice(0, 3)),
  };
  // Build in UTC first so impossible fields (2020-13-45, 25:00) are caught before any zone shifting.
  const naive = DateTime.fromObject(fields, { zone: 'utc' });
  if (!naive.isValid) throw invalid(input, attr);
  let value: DateTime;
  if (offset === undefined) {
    value = fromNaive(naive, zone); // naive = project timezone
  } else {
    const minutes = offsetMinutes(offset);
    if (minutes === null) throw invalid(input, attr);
    value = naive.minus({ minutes }).setZone(zone); // naive fields were local to the offset
  }
  return checkYear(value, input, attr);
}

function offsetMinutes(offset: string): number | null {
  if (offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
  if (hours > 23 || minutes > 59) return null;
  return sign * (hours * 60 + minutes);
}

/** get_delta_mapping_for: what a matched relative string means. */
export function deltaMappingFor(
  kind: string,
  count: number | null,
  position: 'Start' | 'End' | null,
  humanFriendly = false,
): DeltaMapping {
  const m: DeltaMapping = {};
  const start = position === 'Start';
  const end = position === 'End';
  switch (kind) {
    case 'h':
      if (count !== null) m.hours = count;
      if (start) Object.assign(m, { minute: 0, second: 0, millisecond: 0 });
      if (end) Object.assign(m, { minute: 59, second: 59, millisecond: 999 });
      break;
    case 'd':
      if (count !== null) m.days = count;
      if (start) Object.assign(m, { hour: 0, minute: 0, second: 0, millisecond: 0 });
      if (end) Object.assign(m, { hour: 23, minute: 59, second: 59, millisecond: 999 });
      break;
    case 'w':
      if (count !== null) m.weeks = count;
      if (start) Object.assign(m, { weekStart: true, hour: 0, minute: 0, second: 0, millisecond: 0 });
      break;
    case 'm':
      if (count !== null) {
        if (humanFriendly) m.weeks = 4 * count;
        else m.months = count;
      }
      if (start) m.day = 1;
      if (end) m.day = 31; // clamped to the month's last day
      break;
    case 'M':
      if (count !== null) m.minutes = count;
      break;
    case 's':
      if (count !== null) m.seconds = count;
      break;
    case 'q':
      if (count !== null) m.weeks = 13 * count; // PostHog: a quarter is 13 weeks
      if (start) Object.assign(m, { quarterStart: true, hour: 0, minute: 0, second: 0, millisecond: 0 });
      break;
    case 'y':
      if (count !== null) {
        if (humanFriendly) m.weeks = 52 * count;
        else m.years = count;
      }
      if (start) Object.assign(m, { month: 1, day: 1 });
      if (end) m.day = 31; // PostHog quirk: yEnd sets only the day, not the month
      break;
  }
  return m;
}

/**
 * now - relativedelta(mapping), as dateutil computes it: set year/month (shifted), clamp the day,
 * set the time fields, then subtract days/hours/minutes/seconds, all on the wall clock.
 */
function applyDelta(now: DateTime, m: DeltaMapping, weekStartDay: 0 | 1, zone: string): DateTime | null {
  let year = now.year - (m.years ?? 0);
  let month = (m.month ?? now.month) - (m.months ?? 0);
  year += Math.floor((month - 1) / 12);
  month = ((((month - 1) % 12) + 12) % 12) + 1;
  if (year < MIN_YEAR - 1 || year > MAX_YEAR + 1) return null;
  const daysInMonth = DateTime.utc(year, month, 1).daysInMonth ?? 31;
  let naive = DateTime.utc(
    year,
    month,
    Math.min(daysInMonth, m.day ?? now.day),
    m.hour ?? now.hour,
    m.minute ?? now.minute,
    m.second ?? now.second,
    m.millisecond ?? now.millisecond,
  ).minus({
    days: (m.weeks ?? 0) * 7 + (m.days ?? 0),
    hours: m.hours ?? 0,
    minutes: m.minutes ?? 0,
    seconds: m.seconds ?? 0,
  });
  if (!naive.isValid) return null;
  if (m.weekStart) {
    const back = weekStartDay === 1 ? naive.weekday - 1 : naive.weekday % 7;
    naive = naive.minus({ days: back });
  }
  if (m.quarterStart) {
    naive = naive.set({ month: Math.floor((naive.month - 1) / 3) * 3 + 1, day: 1 });
  }
  return fromNaive(naive, zone);
}

/**
 * Parses a date_from / date_to / compare_to string in the project timezone. Absolute ISO dates keep
 * their time; relative strings are applied to `now` (project tz). Throws ValidationError (attr) for
 * anything else, for out-of-range years, and for Start/End on kinds without that meaning.
 */
export function parseDate(input: string, clock: DateClock, options: ParseDateOptions): ParsedDate {
  const { attr } = options;
  const zone = clock.timezone;
  const now = nowInZone({ ...clock, now: options.now ?? clock.now });
  const text = input.trim();

  const iso = ISO.exec(text);
  if (iso) return { value: parseIso(iso, text, zone, attr), delta: null, position: null };

  const rel = RELATIVE.exec(text);
  if (!rel) throw invalid(input, attr);
  const [, digits, kind = '', rawPosition] = rel;
  const position = (rawPosition ?? null) as 'Start' | 'End' | null;
  if (position !== null && !'hdmy'.includes(kind) && !(position === 'Start' && 'wq'.includes(kind))) {
    const detail = `"${text}": ${position} is only supported with h, d, m, y (and wStart, qStart).`;
    throw invalid(input, attr, detail);
  }
  const delta = deltaMappingFor(
    kind,
    digits === undefined ? null : Number(digits),
    position,
    options.humanFriendlyComparisonPeriods ?? false,
  );

  let value = applyDelta(now, delta, clock.weekStartDay, zone);
  if (value === null) throw outOfRange(input, attr);
  if (options.alwaysTruncate) {
    value = delta.hours !== undefined ? value.startOf('hour') : value.startOf('day');
  }
  return { value: checkYear(value, input, attr), delta, position };
}

/** true when a mapping is missing or empty: Python's `not delta_mapping`. */
export function isEmptyDelta(delta: DeltaMapping | null | undefined): boolean {
  return !delta || Object.keys(delta).length === 0;
}

/** clock.now in the project timezone; an unknown zone is a programming error (validated upstream). */
export function nowInZone(clock: DateClock): DateTime {
  const now = clock.now.setZone(clock.timezone);
  if (!now.isValid) throw new Error(`Invalid project timezone: ${clock.timezone}`);
  return now;
}
