// A date of a HogQLQuery's `filters.dateRange` as PostHog's HogQL filters read it (not as insights
// do): an ISO date or date-time is that instant (in the project's time zone unless it carries an
// offset; a bare date is its midnight, so date_to "2020-02-02" ends before that day); anything
// else is relative to now, exactly ("-7d" is now minus 7 days, not that day's start), with
// "Start"/"End" setting the named fields as PostHog's relative_date_parse does.
import { DateTime } from 'luxon';

export interface FilterDate {
  readonly at: DateTime;
  /** The instant is a period's last microsecond ("dEnd"). */
  readonly end: boolean;
}

const RELATIVE = /-?(\d+)?([hdwmqysHDWMQY])(Start|End)?/;

export function resolveFilterDate(text: string, timezone: string, now: DateTime): FilterDate {
  const trimmed = text.trim();
  // PostHog's isoparse: a space may stand for the T between date and time.
  const iso = DateTime.fromISO(trimmed.replace(/^(\d{4}-?\d{2}-?\d{2}) /, '$1T'), { zone: timezone });
  if (iso.isValid) return { at: iso, end: false };
  const local = now.setZone(timezone);
  const match = RELATIVE.exec(trimmed);
  if (!match) return { at: local, end: false };
  const n = match[1] === undefined ? 0 : Number(match[1]);
  const kind = match[2]!;
  const position = match[3];
  switch (kind) {
    case 'h': {
      const at = local.minus({ hours: n });
      if (position === 'Start') return { at: at.startOf('hour'), end: false };
      if (position === 'End') return { at: at.endOf('hour'), end: true };
      return { at, end: false };
    }
    case 'd': {
      const at = local.minus({ days: n });
      if (position === 'Start') return { at: at.startOf('day'), end: false };
      if (position === 'End') return { at: at.endOf('day'), end: true };
      return { at, end: false };
    }
    case 'w':
      return { at: local.minus({ weeks: n }), end: false };
    case 'm': {
      // dateutil's relativedelta: the months move first, then the day is set (31 is the month's last).
      const at = local.minus({ months: n });
      if (position === 'Start') return { at: at.set({ day: 1 }), end: false };
      if (position === 'End') return { at: at.set({ day: at.daysInMonth ?? 31 }), end: false };
      return { at, end: false };
    }
    case 'M':
      return { at: local.minus({ minutes: n }), end: false };
    case 's':
      return { at: local.minus({ seconds: n }), end: false };
    case 'q':
      return { at: local.minus({ weeks: 13 * n }), end: false };
    case 'y': {
      const at = local.minus({ years: n });
      if (position === 'Start') return { at: at.set({ month: 1, day: 1 }), end: false };
      if (position === 'End') return { at: at.set({ day: at.daysInMonth ?? 31 }), end: false };
      return { at, end: false };
    }
    default:
      // PostHog's parser matches the other capitals but moves nothing for them.
      return { at: local, end: false };
  }
}
