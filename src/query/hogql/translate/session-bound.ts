// An event's `session.*` joins the sessions table's states merged per session. Left alone, the
// join merges every session the project ever had. When the events are filtered first (a date
// range, an event name: filter-first.ts moves such conditions into a subquery around events),
// only the sessions of the events that pass can be joined, so the session side keeps the
// sessions whose id is IN the `$session_id`s of those events. The answer is the same: the session
// rows are still merged from every state of the session (its events before the range included);
// only sessions no kept event refers to are skipped. Conditions the engine may evaluate
// differently in the two places (now(), rand(), ...) are not copied: fewer conditions give more
// sessions, never fewer. Only a time condition narrows them much (an event name alone keeps most
// sessions and costs a second scan), so the bound needs one among the conditions copied.
import { and, binary, field, select } from '../../ast/build.js';
import type { Expr, Join, Select, SubqueryRef, TableRef } from '../../ast/nodes.js';
import { conjunctsOf, fieldsOf, readsOnly } from '../../ast/reads.js';
import { walkObjects } from '../../tree/walk.js';

/** Functions whose value depends only on their arguments (so both copies of a condition agree). */
const DETERMINISTIC: ReadonlySet<string> = new Set([
  'equals', 'notEquals', 'less', 'greater', 'lessOrEquals', 'greaterOrEquals', 'in', 'notIn', 'and', 'or', 'not',
  'ifNull', 'isNull', 'isNotNull', 'if', 'multiIf', 'coalesce', 'assumeNotNull', 'nullIf',
  'toTimeZone', 'toDateTime', 'toDateTime64', 'toDate', 'toStartOfDay', 'toStartOfHour', 'toStartOfMinute', 'toStartOfWeek',
  'toStartOfMonth', 'toStartOfInterval', 'parseDateTime64BestEffortOrNull', 'parseDateTimeBestEffortOrNull',
  'plus', 'minus', 'toIntervalSecond', 'toIntervalMinute', 'toIntervalHour', 'toIntervalDay', 'toIntervalWeek',
  'toIntervalMonth', 'toIntervalYear', 'toString', 'toFloat64', 'toInt64', 'toFloat64OrNull', 'toInt64OrNull',
  'JSONExtractString', 'JSONExtractRaw', 'JSONHas', 'match', 'like', 'ilike', 'notLike', 'notILike', 'lower', 'upper',
  'replaceRegexpAll', 'startsWith', 'position', 'empty', 'notEmpty', 'length', 'has',
]);
const PLAIN: ReadonlySet<string> = new Set(['constant', 'field', 'binary', 'and', 'or', 'not', 'isNull', 'tuple', 'array', 'interval']);

/** A condition on the events alone whose every part is deterministic. */
function copyable(condition: Expr, alias: string): boolean {
  if (!readsOnly(condition, alias)) return false;
  return walkObjects(condition, (node) => {
    if (node.kind === 'call') return DETERMINISTIC.has(node.name as string) && !node.distinct ? 'descend' : 'stop';
    return typeof node.kind === 'string' && !PLAIN.has(node.kind) ? 'stop' : 'descend';
  });
}

/** The events FROM that filter-first made: `(SELECT * FROM events AS e WHERE ...) AS e`. */
function filteredEvents(query: Select): { alias: string; events: TableRef; where: Expr } | undefined {
  const from = query.from;
  if (from?.kind !== 'subquery' || from.query.kind !== 'select') return undefined;
  const inner = from.query;
  if (inner.from?.kind !== 'table' || inner.from.table !== 'events' || inner.from.alias !== from.alias || !inner.where) return undefined;
  if (inner.joins?.length || inner.groupBy?.length || inner.limit !== undefined || inner.arrayJoin) return undefined;
  return { alias: from.alias, events: inner.from, where: inner.where };
}

/** A LEFT JOIN of sessions' merged states ON session_id = <events alias>.$session_id. */
function sessionJoin(join: Join, eventsAlias: string): (SubqueryRef & { query: Select }) | undefined {
  if (join.type !== 'LEFT' || join.from.kind !== 'subquery' || join.from.query.kind !== 'select') return undefined;
  const sessions = join.from.query;
  if (sessions.from?.kind !== 'table' || sessions.from.table !== 'sessions' || sessions.where) return undefined;
  const on = join.on;
  if (on?.kind !== 'binary' || on.op !== '=') return undefined;
  const readsKeys = on.left.kind === 'field' && on.left.table === join.from.alias && on.left.name === 'session_id'
    && on.right.kind === 'field' && on.right.table === eventsAlias && on.right.name === '$session_id';
  return readsKeys ? (join.from as SubqueryRef & { query: Select }) : undefined;
}

/** The SELECT with each session join narrowed to the sessions of its filtered events. */
export function boundSessionJoins(query: Select): Select {
  const events = filteredEvents(query);
  if (!events || !query.joins) return query;
  const conditions = conjunctsOf(events.where).filter((c) => copyable(c, events.alias));
  if (!fieldsOf(conditions, events.alias).some((f) => f.name === 'timestamp')) return query;
  const { sample: _sample, ...unsampled } = events.events;
  const joins = query.joins.map((join) => {
    const sessions = sessionJoin(join, events.alias);
    if (!sessions) return join;
    const rawAlias = (sessions.query.from as TableRef).alias;
    const ids = select({ select: [field('$session_id', events.alias)], from: unsampled, where: and(...conditions) });
    const bounded = { ...sessions.query, where: binary('IN', field('session_id', rawAlias), ids) };
    return { ...join, from: { ...sessions, query: bounded } };
  });
  return { ...query, joins };
}
