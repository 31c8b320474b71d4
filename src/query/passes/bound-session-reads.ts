// A session join merges the states of every session of the project unless told otherwise. The
// sessions table is ordered by `session_start_hint` (the time part of a UUIDv7 `$session_id`, the
// epoch for other ids: event-store migration 4), so when the events joined are bounded in time,
// the session side keeps only sessions whose id time lies near the range, and every session whose
// id carries no time (hint 0): answers change for no non-v7 id. A posthog-js session lasts at
// most 24 hours, so its id time is at most 24 h before its last event; SLACK more on each side
// covers client clocks that skew (PostHog bounds its sessions by the v7 id the same way). The one
// loss: a v7 id whose time lies farther than that from its events.
import { and, binary, call, constant, eq, or } from '../ast/build.js';
import type { Binary, Expr, Join, Query, Select, SubqueryRef } from '../ast/nodes.js';
import { conjunctsOf } from '../ast/reads.js';
import { walkObjects } from '../tree/walk.js';
import { AstTransformer } from './transformer.js';

/** Longest session (posthog-js ends one after 24 h) and client clock skew allowed, in days. */
const SESSION_DAYS = 1;
const SLACK_DAYS = 1;

export function boundSessionReads<Q extends Query>(query: Q): Q {
  return new SessionReadBounder().query(query) as Q;
}

class SessionReadBounder extends AstTransformer {
  override select(s: Select): Select {
    return bounded(super.select(s));
  }
}

/** Functions a time bound may call: its value is the same wherever it is printed. */
const BOUND_CALLS: ReadonlySet<string> = new Set([
  'toDateTime', 'toDateTime64', 'toDate', 'toTimeZone', 'parseDateTime64BestEffortOrNull', 'parseDateTimeBestEffortOrNull', 'assumeNotNull',
  'plus', 'minus', 'toIntervalSecond', 'toIntervalMinute', 'toIntervalHour', 'toIntervalDay', 'toIntervalWeek', 'toIntervalMonth', 'toIntervalYear',
  'toStartOfDay', 'toStartOfHour', 'toStartOfWeek', 'toStartOfMonth',
]);

/** A constant time (no field, no subquery, only BOUND_CALLS). */
const isBound = (value: Expr): boolean =>
  walkObjects(value, (node) => {
    if (node.kind === 'call') return BOUND_CALLS.has(node.name as string) && !node.params ? 'descend' : 'stop';
    return node.kind === 'constant' || node.kind === 'interval' ? 'descend' : 'stop';
  });

const FLIPPED: Record<string, string> = { '>=': '<=', '>': '<', '<=': '>=', '<': '>' };
const OPERATORS: Record<string, string> = { greaterOrEquals: '>=', greater: '>', lessOrEquals: '<=', less: '<' };

interface Range { lo?: Expr; hi?: Expr }

/** `timestamp <op> bound` (either side, binary or function form) as a range of the events. */
function comparison(condition: Expr, alias: string): Range | undefined {
  let op: string | undefined;
  let left: Expr | undefined;
  let right: Expr | undefined;
  if (condition.kind === 'binary') [op, left, right] = [condition.op, condition.left, condition.right];
  else if (condition.kind === 'call' && OPERATORS[condition.name] && condition.args.length === 2) [op, left, right] = [OPERATORS[condition.name], condition.args[0], condition.args[1]];
  if (!op || !left || !right || !FLIPPED[op]) return undefined;
  // HogQL reads it in the project's zone: toTimeZone(timestamp, zone), the same instant.
  const isTime = (e: Expr): boolean => (e.kind === 'field' && e.name === 'timestamp' && e.table === alias)
    || (e.kind === 'call' && e.name === 'toTimeZone' && e.args.length === 2 && isTime(e.args[0]!));
  if (isTime(right)) [op, left, right] = [FLIPPED[op]!, right, left];
  if (!isTime(left) || !isBound(right)) return undefined;
  return op.startsWith('>') ? { lo: right } : { hi: right };
}

/** The time range the AND-ed conditions keep (an OR of ranges, as compared periods are, spans them all). */
function rangeOf(conditions: readonly Expr[], alias: string): Range {
  const range: Range = {};
  for (const condition of conditions) {
    const found = condition.kind === 'or' ? spanOf(condition.exprs, alias) : comparison(condition, alias);
    range.lo ??= found?.lo;
    range.hi ??= found?.hi;
  }
  return range;
}

function spanOf(branches: readonly Expr[], alias: string): Range | undefined {
  const ranges = branches.map((branch) => rangeOf(conjunctsOf(branch), alias));
  const all = (side: 'lo' | 'hi') => (ranges.every((r) => r[side]) ? ranges.map((r) => r[side]!) : undefined);
  const lows = all('lo');
  const highs = all('hi');
  return {
    lo: lows && (lows.length === 1 ? lows[0] : call('least', ...lows)),
    hi: highs && (highs.length === 1 ? highs[0] : call('greatest', ...highs)),
  };
}

/** The events of the FROM (a table, or filter-first's subquery around it) and the conditions on them. */
function eventsOf(query: Select): { alias: string; conditions: Expr[] } | undefined {
  const from = query.from;
  if (from?.kind === 'table' && from.table === 'events') return { alias: from.alias, conditions: conjunctsOf(query.where) };
  if (from?.kind !== 'subquery' || from.query.kind !== 'select') return undefined;
  const inner = from.query;
  if (inner.from?.kind !== 'table' || inner.from.table !== 'events' || inner.from.alias !== from.alias) return undefined;
  if (inner.joins?.length || inner.groupBy?.length || inner.limit !== undefined || inner.arrayJoin) return undefined;
  return { alias: from.alias, conditions: [...conjunctsOf(inner.where), ...conjunctsOf(query.where)] };
}

/** A LEFT or INNER join of the sessions table's rows ON session_id = <events>.$session_id. */
function sessionsOf(join: Join, eventsAlias: string): (SubqueryRef & { query: Select }) | undefined {
  if ((join.type !== 'LEFT' && join.type !== 'INNER') || join.from.kind !== 'subquery' || join.from.query.kind !== 'select') return undefined;
  const from = join.from.query.from;
  if (from?.kind !== 'table' || from.table !== 'sessions') return undefined;
  const on = join.on as Binary | undefined;
  if (on?.kind !== 'binary' || on.op !== '=') return undefined;
  const keys = on.left.kind === 'field' && on.left.table === join.from.alias && on.left.name === 'session_id'
    && on.right.kind === 'field' && on.right.table === eventsAlias && on.right.name === '$session_id';
  return keys ? (join.from as SubqueryRef & { query: Select }) : undefined;
}

const days = (n: number) => call('toIntervalDay', constant(n));
/** A bound to the second, as a DateTime64 (a DateTime would wrap below the epoch: 1970-01-01 - 2 days). */
const seconds = (bound: Expr) => call('toDateTime64', bound, constant(0, 'UInt8'), constant('UTC'));

function bounded(query: Select): Select {
  if (!query.joins?.length) return query;
  const events = eventsOf(query);
  if (!events) return query;
  const { lo, hi } = rangeOf(events.conditions, events.alias);
  if (!lo && !hi) return query;
  let changed = false;
  const joins = query.joins.map((join) => {
    const sessions = sessionsOf(join, events.alias);
    if (!sessions) return join;
    const raw = sessions.query.from as { alias: string };
    const hint = { kind: 'field', name: 'session_start_hint', table: raw.alias } as const;
    const near = and(
      lo && binary('>=', hint, call('minus', seconds(lo), days(SESSION_DAYS + SLACK_DAYS))),
      hi && binary('<=', hint, call('plus', seconds(hi), days(SLACK_DAYS))),
    );
    changed = true;
    const where = and(sessions.query.where, or(eq(hint, constant(0)), near));
    return { ...join, from: { ...sessions, query: { ...sessions.query, where } } };
  });
  return changed ? { ...query, joins } : query;
}
