// PostHog's web analytics definitions written out plainly over raw stored events, as an oracle
// for the web query kinds (reference web-analytics.md §5-6). Deliberately independent of
// src/query: sessions are grouped here, persons joined from $identify events, channel types
// decided by the few rules (and definition rows) the traffic under test reaches.

export interface RawEvent {
  uuid: string;
  event: string;
  ts: number; // ms since epoch
  distinctId: string;
  props: Record<string, any>;
}

export interface Session {
  id: string;
  events: RawEvent[]; // by time
  start: number;
  end: number;
  duration: number; // whole seconds crossed, as dateDiff('second', start, end)
  pageviews: number;
  autocaptures: number;
  isBounce: boolean | null;
  entry: RawEvent;
  exit: RawEvent;
  channelType: string;
}

export interface Period {
  from: number; // inclusive, ms
  to: number; // inclusive, ms
}

const inPeriod = (ts: number, p: Period) => ts >= p.from && ts <= p.to;
const pathOf = (url: unknown) => (typeof url === 'string' && url !== '' && url !== 'null' ? new URL(url).pathname : null);
const blankToNull = (v: unknown) => (v === undefined || v === null || v === '' ? null : v);

/** Persons as PostHog merges them: each $identify joins its $anon_distinct_id to its distinct id. */
export function personsOf(events: RawEvent[]): (distinctId: string) => string {
  const parent = new Map<string, string>();
  const find = (id: string): string => {
    const up = parent.get(id);
    if (up === undefined || up === id) return id;
    const root = find(up);
    parent.set(id, root);
    return root;
  };
  for (const e of events) {
    if (e.event === '$identify' && typeof e.props.$anon_distinct_id === 'string') parent.set(find(e.props.$anon_distinct_id), find(e.distinctId));
  }
  return find;
}

// The few rows of PostHog's channel_definitions.json this traffic reaches (source → [paid, organic]).
const SOURCES: Record<string, [string, string]> = {
  google: ['Paid Search', 'Organic Search'],
  'google.com': ['Paid Search', 'Organic Search'],
  'bing.com': ['Paid Search', 'Organic Search'],
};
const ORGANIC_MEDIUMS: Record<string, string> = { email: 'Email' };
// Values this traffic sends that have no row there.
const UNLISTED = new Set(['newsletter', 'example.org', 'blog.example.org', 'spring']);
const PAID_MEDIUMS = new Set(['cpc', 'cpm', 'cpv', 'cpa', 'ppc', 'retargeting']);

/** Registrable domain for the lookup's fallback (enough for the hosts used here). */
const firstSignificant = (host: string) => host.split('.').slice(-2).join('.');

function sourceLookup(value: string | null, paid: boolean): string | null {
  if (value === null) return null;
  for (const key of [value, firstSignificant(value)]) {
    if (SOURCES[key]) return SOURCES[key][paid ? 0 : 1];
  }
  if (!UNLISTED.has(value) && !UNLISTED.has(firstSignificant(value))) throw new Error(`oracle: no channel rule for source ${value}`);
  return null;
}

/** Channel type of a session's entry values: the rules of reference §5.5 this traffic reaches. */
export function channelType(entry: Record<string, any>): string {
  const lower = (v: unknown) => (blankToNull(v) === null ? null : String(v).toLowerCase());
  const source = lower(entry.utm_source);
  const medium = lower(entry.utm_medium);
  const campaign = lower(entry.utm_campaign);
  const referringDomain = blankToNull(entry.$referring_domain) as string | null;
  const hasGclid = blankToNull(entry.gclid) !== null;
  if (campaign !== null && /cross-network/.test(campaign)) throw new Error('oracle: cross-network is not in this traffic');
  if ((medium !== null && (PAID_MEDIUMS.has(medium) || medium.startsWith('paid'))) || hasGclid) {
    return sourceLookup(source, true) ?? sourceLookup(referringDomain, true) ?? 'Paid Unknown';
  }
  if (referringDomain === '$direct' && medium === null && (source === null || ['(direct)', 'direct', '$direct'].includes(source))) return 'Direct';
  const organic = sourceLookup(source, false) ?? (medium !== null ? ORGANIC_MEDIUMS[medium] ?? null : null)
    ?? (referringDomain !== '$direct' ? sourceLookup(referringDomain, false) : null);
  if (organic) return organic;
  if (referringDomain === '$direct') return 'Direct';
  return referringDomain !== null ? 'Referral' : 'Unknown';
}

/** Sessions keyed by $session_id over every event that has one (any event name). */
export function sessionsOf(events: RawEvent[]): Map<string, Session> {
  const byId = new Map<string, RawEvent[]>();
  for (const e of events) {
    const id = blankToNull(e.props.$session_id) as string | null;
    if (id === null) continue;
    byId.set(id, [...(byId.get(id) ?? []), e]);
  }
  const sessions = new Map<string, Session>();
  for (const [id, list] of byId) {
    const sorted = [...list].sort((a, b) => a.ts - b.ts);
    const entry = sorted[0]!;
    const exit = sorted[sorted.length - 1]!;
    const duration = Math.floor(exit.ts / 1000) - Math.floor(entry.ts / 1000);
    const pageviews = sorted.filter((e) => e.event === '$pageview').length;
    const autocaptures = sorted.filter((e) => e.event === '$autocapture').length;
    const isBounce = pageviews === 0 ? null : !(pageviews > 1 || autocaptures > 0 || duration >= 10);
    sessions.set(id, { id, events: sorted, start: entry.ts, end: exit.ts, duration, pageviews, autocaptures, isBounce, entry, exit, channelType: channelType(entry.props) });
  }
  return sessions;
}

const avg = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Python's round(): half to even. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x);
  const diff = x - floor;
  if (Math.abs(diff - 0.5) > 1e-9) return Math.round(x);
  return floor % 2 === 0 ? floor : floor + 1;
}

export interface OverviewItem {
  key: string;
  value: number | null;
  previous: number | null;
  changeFromPreviousPct: number | null;
}

/** Property filters of a query, as plain predicates: event ones per page view, session ones on its session. */
export interface Filters {
  event?: (e: RawEvent) => boolean;
  session?: (s: Session) => boolean;
}

/**
 * WebOverviewQuery (§5.3-5.4): sessions with a (filtered) page view in either period, each in the
 * period of its start (over all its events); duration and bounce stay whole-session values.
 */
export function overviewOracle(events: RawEvent[], current: Period, previous: Period | null, filters: Filters = {}): OverviewItem[] {
  const person = personsOf(events);
  const periods = previous ? [current, previous] : [current];
  const inWindow = (ts: number) => periods.some((p) => inPeriod(ts, p));
  const counted = [...sessionsOf(events).values()]
    .filter((s) => !filters.session || filters.session(s))
    .map((s) => ({ s, views: s.events.filter((e) => e.event === '$pageview' && inWindow(e.ts) && (!filters.event || filters.event(e))).length }))
    .filter(({ s, views }) => views > 0 && periods.some((p) => inPeriod(s.start, p)));
  const numbers = (p: Period) => {
    const mine = counted.filter(({ s }) => inPeriod(s.start, p));
    const bounces = mine.map(({ s }) => s.isBounce).filter((b): b is boolean => b !== null).map((b) => (b ? 1 : 0));
    const bounce = avg(bounces);
    return {
      visitors: new Set(mine.map(({ s }) => person(s.events.find((e) => e.event === '$pageview')!.distinctId))).size,
      views: mine.reduce((n, { views }) => n + views, 0),
      sessions: mine.length,
      'session duration': avg(mine.map(({ s }) => s.duration)),
      'bounce rate': bounce === null ? null : bounce * 100,
    };
  };
  const now = numbers(current);
  const before = previous ? numbers(previous) : null;
  return (Object.keys(now) as (keyof typeof now)[]).map((key) => {
    const value = now[key];
    const prev = before ? before[key] : null;
    const change = value === null || prev === null || prev === 0 ? null : roundHalfEven((100 * (value - prev)) / prev);
    return { key, value, previous: prev, changeFromPreviousPct: change };
  });
}

export interface Breakdown {
  /** The value of a page view (event-level) or of its session (session-level). */
  value(e: RawEvent, s: Session | undefined): unknown;
  /** Rows kept; absent: every row, NULL its own. */
  keep?(v: unknown): boolean;
}

const prop = (key: string): Breakdown => ({ value: (e) => blankToNull(e.props[key]), keep: (v) => v !== null });
const entryProp = (key: string, keepNull = false): Breakdown =>
  ({ value: (_e, s) => (s ? blankToNull(s.entry.props[key]) : null), ...(keepNull ? {} : { keep: (v: unknown) => v !== null }) });

export const BREAKDOWNS: Record<string, Breakdown> = {
  Page: prop('$pathname'),
  InitialPage: { value: (_e, s) => (s ? pathOf(s.entry.props.$current_url) : null), keep: (v) => v !== null },
  ExitPage: { value: (_e, s) => (s ? pathOf(s.exit.props.$current_url) : null), keep: (v) => v !== null },
  InitialChannelType: { value: (_e, s) => (s ? s.channelType : null), keep: (v) => v !== null && v !== '' },
  InitialReferringDomain: entryProp('$referring_domain'),
  InitialUTMSource: entryProp('utm_source', true),
  InitialUTMMedium: entryProp('utm_medium', true),
  InitialUTMCampaign: entryProp('utm_campaign', true),
  InitialUTMSourceMediumCampaign: {
    value: (_e, s) => {
      const entry = (key: string) => (s ? blankToNull(s.entry.props[key]) : null);
      return `${entry('utm_source') ?? entry('$referring_domain') ?? '(none)'} / ${entry('utm_medium') ?? '(none)'} / ${entry('utm_campaign') ?? '(none)'}`;
    },
  },
  Browser: prop('$browser'),
  OS: prop('$os'),
  DeviceType: prop('$device_type'),
  Viewport: {
    value: (e) => [Number(e.props.$viewport_width ?? 0), Number(e.props.$viewport_height ?? 0)],
    keep: (v) => (v as number[]).every((n) => Number.isFinite(n) && n !== 0),
  },
  Timezone: { value: (e) => (e.props.$timezone_offset === undefined ? null : -Number(e.props.$timezone_offset) / 60), keep: (v) => v !== null },
  // The language part; the region most seen with it is added after grouping.
  Language: { value: (e) => blankToNull(String(e.props.$browser_language ?? '').split('-')[0]), keep: (v) => v !== null },
};

export type Pair = [number | null, number | null];
export interface StatsRow {
  value: unknown;
  visitors: Pair;
  views: Pair;
  bounce_rate?: Pair;
  ui_fill_fraction: number | null;
}

interface Group { session: Session | undefined; person: string; views: number; value: unknown; start: number | null }

/**
 * WebStatsTableQuery (§6.2-6.4): page views in either period grouped by (session, value); without
 * compare every group counts as current, with compare a group counts in the period of its session's
 * start. `Page` with bounce rate conditions its counts on the start and takes a page's bounce rate
 * from the sessions that entered on it (§6.3).
 */
export function statsOracle(events: RawEvent[], breakdownBy: string, current: Period, previous: Period | null, includeBounceRate: boolean): StatsRow[] {
  const spec = BREAKDOWNS[breakdownBy];
  if (!spec) throw new Error(`oracle: no breakdown ${breakdownBy}`);
  const person = personsOf(events);
  const sessions = sessionsOf(events);
  const periods = previous ? [current, previous] : [current];
  const inWindow = (ts: number) => periods.some((p) => inPeriod(ts, p));
  const pageviews = events.filter((e) => e.event === '$pageview' && inWindow(e.ts));
  const groups = new Map<string, Group>();
  for (const e of pageviews) {
    const session = sessions.get(e.props.$session_id);
    const value = spec.value(e, session);
    if (spec.keep && !spec.keep(value)) continue;
    const key = JSON.stringify([session?.id ?? null, value]);
    const group = groups.get(key) ?? { session, person: person(e.distinctId), views: 0, value, start: session?.start ?? null };
    group.views += 1;
    groups.set(key, group);
  }
  const pathBounce = breakdownBy === 'Page' && includeBounceRate;
  const byValue = new Map<string, { value: unknown; groups: Group[] }>();
  for (const g of groups.values()) {
    const k = JSON.stringify(g.value);
    byValue.set(k, { value: g.value, groups: [...(byValue.get(k)?.groups ?? []), g] });
  }
  const startIn = (p: Period) => (g: Group) => g.start !== null && inPeriod(g.start, p);
  const metric = (list: Group[]) => ({
    visitors: new Set(list.map((g) => g.person)).size,
    views: list.reduce((n, g) => n + g.views, 0),
    bounce: avg(list.map((g) => g.session?.isBounce).filter((b): b is boolean => b !== null && b !== undefined).map((b) => (b ? 1 : 0))),
  });
  // Page + bounce: a page's bounce rate is that of the sessions that entered on it.
  const entered = (path: unknown, p: Period) => avg([...sessions.values()]
    .filter((s) => s.isBounce !== null && inPeriod(s.start, p) && s.events.some((e) => e.event === '$pageview' && inWindow(e.ts)) && pathOf(s.entry.props.$current_url) === path)
    .map((s) => (s.isBounce ? 1 : 0)));
  let rows: StatsRow[] = [...byValue.values()].map(({ value, groups: list }) => {
    const cur = pathBounce || previous ? metric(list.filter(startIn(current))) : metric(list);
    const prev = previous ? metric(list.filter(startIn(previous))) : null;
    const row: StatsRow = {
      value,
      visitors: [cur.visitors, prev ? prev.visitors : pathBounce ? 0 : null],
      views: [cur.views, prev ? prev.views : pathBounce ? 0 : null],
      ui_fill_fraction: null,
    };
    if (pathBounce) row.bounce_rate = [entered(value, current), previous ? entered(value, previous) : null];
    else if (includeBounceRate) row.bounce_rate = [cur.bounce, prev ? prev.bounce : null];
    return row;
  });
  if (breakdownBy === 'Language') {
    rows = rows.map((row) => {
      const regions = new Map<string, number>();
      for (const e of pageviews) {
        const [lang, region] = String(e.props.$browser_language ?? '').split('-');
        if (lang === row.value && region) regions.set(region, (regions.get(region) ?? 0) + 1);
      }
      const top = [...regions.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
      return { ...row, value: top ? `${row.value}-${top}` : row.value };
    });
  }
  const total = rows.reduce((n, r) => n + (r.visitors[0] ?? 0), 0);
  for (const r of rows) r.ui_fill_fraction = total === 0 ? null : (r.visitors[0] ?? 0) / total;
  const cmpPair = (a: Pair, b: Pair) => (b[0] ?? -1) - (a[0] ?? -1) || (b[1] ?? -1) - (a[1] ?? -1);
  const cmpValue = (a: unknown, b: unknown): number => {
    if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
    if (Array.isArray(a) && Array.isArray(b)) return cmpValue(a[0], b[0]) || cmpValue(a[1], b[1]);
    return (a as any) < (b as any) ? -1 : (a as any) > (b as any) ? 1 : 0;
  };
  return rows.sort((a, b) => cmpPair(a.visitors, b.visitors) || cmpPair(a.views, b.views) || cmpValue(a.value, b.value));
}
