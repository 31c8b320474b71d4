// The behavioural conditions of a cohort as one pass over the events: per person, one 0/1 column
// per condition. Windows follow PostHog's cohort engine: "performed" conditions read whole days
// (from the start of the day N units ago to the end of today, in the project's timezone);
// "performed at least/exactly/at most K times" reads the exact span (now - N, now + 5 s) and, as
// there, needs at least one such event (so "at most 1" never matches a person with none).
import type { DateTime } from 'luxon';
import { alias, and, binary, call, constant, or, select } from '../ast/build.js';
import type { Expr, Select } from '../ast/nodes.js';
import { instant } from '../buckets/bucket-start.js';
import type { QueryContext } from '../context.js';
import { parseDate } from '../dates/parse-date.js';
import { entityMatch } from '../filters/entity-match.js';
import type { EventSource } from '../filters/event-source.js';
import { eventSourceFor } from '../hogql/expressions.js';
import { utcText } from '../runners/event-range.js';
import { isCohortGroup, type BehaviouralCondition, type CohortGroup, type CountOperator, type TimeWindow } from './schema.js';

export interface BehaviourColumns {
  /** Per person (`behaviour_person`) a column per condition; null when the cohort has none. */
  readonly query: Select | null;
  /** The names of the 0/1 columns, one per condition. */
  readonly columns: readonly string[];
  columnOf(condition: BehaviouralCondition): string;
}

interface Span {
  readonly from: DateTime;
  readonly to: DateTime;
}

const COMPARISON: Record<CountOperator, '>=' | '<=' | '=' | '>' | '<'> = { gte: '>=', lte: '<=', exact: '=', eq: '=', gt: '>', lt: '<' };

export function behaviourColumns(group: CohortGroup, context: QueryContext): BehaviourColumns {
  const conditions = behaviouralConditions(group);
  const names = new Map(conditions.map((condition, i) => [condition, `b${i}`]));
  const columnOf = (condition: BehaviouralCondition) => names.get(condition)!;
  if (conditions.length === 0) return { query: null, columns: [], columnOf };

  const source = eventSourceFor(context);
  const now = context.now.setZone(context.project.timezone);
  const clock = { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now };
  const ts = source.timestamp;
  const within = (span: Span, exclusive = false) =>
    and(binary(exclusive ? '>' : '>=', ts, instant(utcText(span.from))), binary(exclusive ? '<' : '<=', ts, instant(utcText(span.to, true))));
  const daysBack = (window: TimeWindow): Span => ({ from: now.minus({ [`${window.interval}s`]: window.value }).startOf('day'), to: now.endOf('day') });

  const matches: Expr[] = [];
  // The earliest instant any condition reads; null when one needs all history (a first time).
  let earliest: DateTime | null = now;
  const columns = conditions.map((condition) => {
    const match = conditionMatch(condition, context, source);
    matches.push(match);
    const performed = (span: Span) => binary('>', call('countIf', and(match, within(span))), constant(0));
    const firstSeen = call('minIf', ts, and(match, binary('<=', ts, instant(utcText(now.endOf('day'), true)))));
    let expr: Expr;
    switch (condition.behaviour) {
      case 'performed_event': {
        const span = 'since' in condition.window
          ? { from: parseDate(condition.window.since, clock, { attr: 'explicit_datetime', alwaysTruncate: true }).value, to: now.endOf('day') }
          : daysBack(condition.window);
        earliest = earliest && (span.from < earliest ? span.from : earliest);
        expr = performed(span);
        break;
      }
      case 'performed_event_multiple': {
        const from = 'since' in condition.window
          ? parseDate(condition.window.since, clock, { attr: 'explicit_datetime' }).value
          : now.minus({ [`${condition.window.interval}s`]: condition.window.value });
        const span = { from, to: now.plus({ seconds: 5 }) };
        earliest = earliest && (from < earliest ? from : earliest);
        const times = call('countIf', and(match, within(span, true)));
        expr = and(binary('>', times, constant(0)), binary(COMPARISON[condition.countOperator ?? 'gte'], times, constant(condition.count ?? 1)));
        break;
      }
      case 'performed_event_first_time': {
        const span = daysBack(condition.window as TimeWindow);
        earliest = null;
        expr = and(performed(span), binary('>=', firstSeen, instant(utcText(span.from))));
        break;
      }
      case 'stopped_performing_event': {
        const longer = daysBack(condition.window as TimeWindow);
        const recent = daysBack(condition.earlierWindow!);
        earliest = earliest && (longer.from < earliest ? longer.from : earliest);
        expr = and(performed(longer), binary('=', call('countIf', and(match, within(recent))), constant(0)));
        break;
      }
      case 'restarted_performing_event': {
        const recent = daysBack(condition.earlierWindow!);
        const gap = { from: daysBack(condition.window as TimeWindow).from, to: now.minus({ [`${condition.earlierWindow!.interval}s`]: condition.earlierWindow!.value }).endOf('day') };
        earliest = null;
        expr = and(
          performed(recent),
          binary('<', firstSeen, instant(utcText(recent.from))),
          binary('=', call('countIf', and(match, within(gap))), constant(0)),
        );
        break;
      }
    }
    return alias(call('toUInt8', expr), columnOf(condition));
  });

  const person = source.personId();
  const where = and(
    or(...matches),
    binary('<=', ts, instant(utcText(now.plus({ seconds: 5 }), true))),
    earliest ? binary('>=', ts, instant(utcText(earliest))) : undefined,
  );
  // Joins are collected while the expressions above are built.
  const query = select({ select: [alias(person, 'behaviour_person'), ...columns], from: source.from(), joins: source.joins(), where, groupBy: [person] });
  return { query, columns: [...names.values()], columnOf };
}

function conditionMatch(condition: BehaviouralCondition, context: QueryContext, source: EventSource): Expr {
  const properties = { type: 'AND' as const, values: condition.eventFilters };
  return condition.eventType === 'actions'
    ? entityMatch({ kind: 'ActionsNode', id: Number(condition.key), properties }, context, source)
    : entityMatch({ kind: 'EventsNode', event: String(condition.key), properties }, context, source);
}

function behaviouralConditions(group: CohortGroup): BehaviouralCondition[] {
  return group.values.flatMap((value) => (isCohortGroup(value) ? behaviouralConditions(value) : value.type === 'behavioral' ? [value] : []));
}
