// Funnel correlation as statements over the funnel's entrants:
//
//   actors:  the funnel's per-actor walk (funnels/person-query.ts) -> actor, converted, first step
//            time, and the end of their window (the last step for converters, else first + window)
//   totals:  converters and drop-offs
//   counts:  per candidate (an event name; "key::value" of the actor's properties; or
//            "event::key::value" of an event's properties) the converters and drop-offs it touches,
//            events counted only strictly inside each actor's window
import { alias, and, array, binary, call, constant, eq, field, innerJoin, lambda, leftJoin, not, select, subquery } from '../../ast/build.js';
import type { Expr, Select } from '../../ast/nodes.js';
import { instant } from '../../buckets/bucket-start.js';
import { latestGroups, latestPersons } from '../../catalog/latest.js';
import type { QueryContext } from '../../context.js';
import { actionEventNames } from '../../filters/actions.js';
import { actorOf, type ActorGroup } from '../../filters/actor.js';
import { EventSource } from '../../filters/event-source.js';
import { eventSourceFor } from '../../hogql/expressions.js';
import type { FunnelCorrelationQuery } from '../../nodes/schema.js';
import type { FunnelRange } from '../funnels/range.js';
import { personQuery } from '../funnels/person-query.js';
import { windowMicros } from '../funnels/spec.js';

const num = (n: number) => constant(n, 'Int64');

const AUTOCAPTURE = '$autocapture';
/** PostHog's names of autocapture candidates: `$autocapture::elements_chain::<event type>__~~__<chain>`. */
export const AUTOCAPTURE_PREFIX = '$autocapture::elements_chain::';
export const AUTOCAPTURE_SEPARATOR = '__~~__';
const names = (list: readonly string[]) => constant([...list], 'Array(String)');

const groupOf = (query: FunnelCorrelationQuery): ActorGroup => query.source.aggregation_group_type_index ?? null;

/** Columns: cr_actor, cr_converted (UInt8), cr_first (µs), cr_end (µs). */
export function funnelEntrants(query: FunnelCorrelationQuery, context: QueryContext, window: FunnelRange): Select {
  const funnel = query.source;
  const n = funnel.series.length;
  const { select: persons } = personQuery({ query: funnel, context, fromUtc: window.fromUtc, toUtc: window.toUtc, stepTimes: true });
  const converted = binary('>=', field('reached'), num(n));
  const first = call('arrayElement', field('step_times'), num(1));
  return select({
    select: [
      alias(field('actor'), 'cr_actor'),
      alias(call('toUInt8', converted), 'cr_converted'),
      alias(first, 'cr_first'),
      alias(call('if', converted, call('arrayElement', field('step_times'), num(n)), binary('+', first, num(windowMicros(funnel)))), 'cr_end'),
    ],
    from: subquery(persons, 'funnel_persons'),
    where: binary('>', field('reached'), num(0)),
  });
}

/** Only the candidates touching at least `minimum` entrants (the rest never reach JavaScript). */
export function supported(candidates: Select, minimum: number): Select {
  return select({
    select: [field('candidate'), field('success_count'), field('failure_count')],
    from: subquery(candidates, 'candidates'),
    where: binary('>=', binary('+', field('success_count'), field('failure_count')), constant(minimum, 'Float64')),
  });
}

/** Columns: converted, dropped. */
export function entrantTotals(entrants: Select): Select {
  return select({
    select: [alias(call('countIf', eq(field('cr_converted'), num(1))), 'converted'), alias(call('countIf', eq(field('cr_converted'), num(0))), 'dropped')],
    from: subquery(entrants, 'entrants'),
  });
}

const counts = (candidate: string): Expr[] => [
  alias(call('uniqExactIf', field('cr_actor'), eq(field('cr_converted'), num(1))), 'success_count'),
  alias(call('uniqExactIf', field('cr_actor'), eq(field('cr_converted'), num(0))), 'failure_count'),
  field(candidate),
];

/** The events of the entrants inside their windows and the funnel's range, joined to each entrant. */
export function entrantEvents(query: FunnelCorrelationQuery, context: QueryContext, window: FunnelRange, columns: (source: EventSource) => Expr[], where: (source: EventSource) => Expr | undefined): Select {
  const source = eventSourceFor(context);
  const actor = actorOf(groupOf(query), source);
  const micros = call('toUnixTimestamp64Micro', source.timestamp);
  const built = columns(source);
  const condition = and(
    binary('>=', source.timestamp, instant(window.fromUtc)),
    binary('<=', source.timestamp, instant(window.toUtc)),
    binary('>', micros, field('cr_first', 'entrant')),
    binary('<', micros, field('cr_end', 'entrant')),
    where(source),
  );
  return select({
    select: [alias(field('cr_actor', 'entrant'), 'cr_actor'), alias(field('cr_converted', 'entrant'), 'cr_converted'), ...built],
    from: source.from(),
    joins: [...source.joins(), innerJoin(subquery(funnelEntrants(query, context, window), 'entrant'), eq(field('cr_actor', 'entrant'), actor))],
    where: condition,
  });
}

/** The funnel's own step events: never candidates (an action step's every event name too). */
function stepEventNames(query: FunnelCorrelationQuery, context: QueryContext): string[] {
  return [...new Set(query.source.series.flatMap((step) => (step.kind === 'ActionsNode'
    ? actionEventNames(context.actions.get(step.id)) ?? []
    : step.event === null ? [] : [step.event])))];
}

/** Columns: candidate, success_count, failure_count — one row per event name. */
export function eventCandidates(query: FunnelCorrelationQuery, context: QueryContext, window: FunnelRange): Select {
  const leftOut = [...stepEventNames(query, context), ...query.funnelCorrelationExcludeEventNames];
  const events = entrantEvents(query, context, window,
    (source) => [alias(source.event, 'candidate')],
    (source) => (leftOut.length > 0 ? not(binary('IN', source.event, names(leftOut))) : undefined));
  return select({ select: counts('candidate'), from: subquery(events, 'candidate_events'), groupBy: [field('candidate')] });
}

/** Columns: candidate ("event::key::value"), success_count, failure_count. */
export function eventPropertyCandidates(query: FunnelCorrelationQuery, context: QueryContext, window: FunnelRange): Select {
  const excluded = query.funnelCorrelationEventExcludePropertyNames;
  const events = entrantEvents(query, context, window,
    (source) => {
      const pairs = call('JSONExtractKeysAndValues', source.properties, constant('String'));
      const kept = excluded.length > 0 ? call('arrayFilter', lambda(['cr_kv'], not(binary('IN', call('tupleElement', field('cr_kv'), num(1)), names(excluded)))), pairs) : pairs;
      const named = call('arrayMap', lambda(['cr_kv'], call('concat', source.event, constant('::'), call('tupleElement', field('cr_kv'), num(1)), constant('::'), call('tupleElement', field('cr_kv'), num(2)))), kept);
      if (!query.funnelCorrelationEventNames.includes(AUTOCAPTURE)) return [alias(call('arrayJoin', named), 'candidate')];
      // An autocapture event is one candidate: what was done (click, submit...) to which elements.
      const clicked = call('concat', constant(AUTOCAPTURE_PREFIX), call('JSONExtractString', source.properties, constant('$event_type')), constant(AUTOCAPTURE_SEPARATOR), source.elementsChain);
      return [alias(call('arrayJoin', call('if', eq(source.event, constant(AUTOCAPTURE)), array(clicked), named)), 'candidate')];
    },
    (source) => binary('IN', source.event, names(query.funnelCorrelationEventNames)));
  return select({ select: counts('candidate'), from: subquery(events, 'candidate_events'), groupBy: [field('candidate')] });
}

/** Columns: candidate ("key::value" of the entrant's person or group properties), success_count, failure_count. */
export function propertyCandidates(query: FunnelCorrelationQuery, context: QueryContext, window: FunnelRange): Select {
  const group = groupOf(query);
  const prefix = group === null ? 'person' : 'group';
  const details = group === null ? latestPersons(['properties']) : latestGroups(group, ['properties']);
  const properties = field(`${prefix}_properties`, 'details');
  const wanted = query.funnelCorrelationNames;
  const excluded = query.funnelCorrelationExcludeNames;
  const all = wanted.includes('$all');
  const pair = (key: Expr, value: Expr) => call('concat', key, constant('::'), value);
  const pairs = all
    ? call('arrayMap', lambda(['cr_kv'], pair(call('tupleElement', field('cr_kv'), num(1)), call('tupleElement', field('cr_kv'), num(2)))),
      excluded.length > 0
        ? call('arrayFilter', lambda(['cr_kv'], not(binary('IN', call('tupleElement', field('cr_kv'), num(1)), names(excluded)))), call('JSONExtractKeysAndValues', properties, constant('String')))
        : call('JSONExtractKeysAndValues', properties, constant('String')))
    : call('arrayMap', lambda(['cr_name'], pair(field('cr_name'), call('JSONExtractString', properties, field('cr_name')))), names(wanted.filter((name) => !excluded.includes(name))));
  const withProperties = select({
    select: [field('cr_actor', 'entrants'), field('cr_converted', 'entrants'), alias(call('arrayJoin', pairs), 'candidate')],
    from: subquery(funnelEntrants(query, context, window), 'entrants'),
    joins: [leftJoin(subquery(details, 'details'), eq(field(`${prefix}_key`, 'details'), field('cr_actor', 'entrants')))],
  });
  return select({ select: counts('candidate'), from: subquery(withProperties, 'candidate_properties'), groupBy: [field('candidate')] });
}
