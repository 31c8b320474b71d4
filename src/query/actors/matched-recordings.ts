// PostHog's `matched_recordings` beside the actors of an insight's number (the people modal's
// "watch recording"): for each person on the page, the recorded sessions of the events that matched
// the insight (its series, a trends point's series and bucket, a retention's entities; a path's any
// event) in its date range and under its property filters, each with those events' timestamp, uuid and window id. Only sessions that
// have a recording (summary rows in session_replay_events) are named, as PostHog's RecordingsHelper.
// One statement for the whole page, behind the team guard.
import { DateTime } from 'luxon';
import { alias, and, binary, call, constant, field, or, select, table } from '../ast/build.js';
import type { Expr } from '../ast/nodes.js';
import { instant } from '../buckets/bucket-start.js';
import type { QueryContext } from '../context.js';
import { resolveDateRange } from '../dates/index.js';
import type { QueryRun } from '../execute.js';
import { entityMatch, type Entity } from '../filters/entity-match.js';
import { propertyGroupExpr } from '../filters/properties.js';
import { eventSourceFor } from '../hogql/expressions.js';
import type { JsonObject } from '../nodes/read-json.js';
import type { InsightQuery, Interval, PropertyGroup } from '../nodes/schema.js';
import type { ActorsOutput } from '../runners/kind.js';
import { utcText } from '../runners/event-range.js';

/** PostHog's events per matched recording are capped; so are they here, per person. */
const MAX_EVENTS_PER_PERSON = 100;

export interface MatchedRecording {
  readonly session_id: string;
  readonly events: { timestamp: string; uuid: string; window_id: string | null }[];
}

/** Whether the request asks for recordings (InsightActorsQuery.includeRecordings, or the column by name). */
export const wantsRecordings = (target: JsonObject, select: readonly string[] | null): boolean =>
  target.includeRecordings === true || (select?.includes('matched_recordings') ?? false);

/** The actors' rows with a `matched_recordings` column after the kind's own. */
export async function withMatchedRecordings(output: ActorsOutput, source: InsightQuery, target: JsonObject, context: QueryContext, run: QueryRun): Promise<ActorsOutput> {
  const personIds = output.results.map((row) => (row[0] as { id?: unknown; group_type_index?: unknown })).filter((a) => a.group_type_index === undefined).map((a) => String(a.id));
  const recordings = personIds.length === 0 ? new Map<string, MatchedRecording[]>() : await matchedRecordings(run, context, source, target, personIds);
  return {
    ...output,
    columns: [...output.columns, 'matched_recordings'],
    results: output.results.map((row) => [...row, recordings.get(String((row[0] as { id?: unknown }).id)) ?? []]),
  };
}

interface MatchRow {
  actor: string;
  session_id: string;
  ms: string | number;
  uuid: string;
  window_id: string | null;
}

async function matchedRecordings(run: QueryRun, context: QueryContext, query: InsightQuery, target: JsonObject, personIds: readonly string[]): Promise<Map<string, MatchedRecording[]>> {
  const source = eventSourceFor(context);
  const window = windowOf(query, target, context);
  const entities = entitiesOf(query, target);
  const recorded = select({ select: [field('session_id', 'r')], from: table('session_replay_events', 'r') });
  const where: Expr = and(
    binary('IN', call('toString', source.personId()), constant([...personIds], 'Array(String)')),
    call('notEmpty', source.sessionId),
    window ? binary('>=', source.timestamp, instant(window.from)) : undefined,
    window ? binary('<=', source.timestamp, instant(window.to)) : undefined,
    entities === null ? undefined : or(...entities.map((entity) => entityMatch(entity, context, source))),
    // The insight's own filters and test accounts hold for the events that matched it.
    'properties' in query && query.properties ? propertyGroupExpr(query.properties as PropertyGroup, source, context.project.timezone) : undefined,
    'filterTestAccounts' in query && query.filterTestAccounts ? propertyGroupExpr(context.testAccountFilters, source, context.project.timezone) : undefined,
    binary('IN', source.sessionId, recorded),
  );
  const windowId = source.eventProperty('$window_id');
  const rows = await run.rows<MatchRow>(select({
    select: [
      alias(call('toString', source.personId()), 'actor'),
      alias(source.sessionId, 'session_id'),
      alias(call('toUnixTimestamp64Milli', source.timestamp), 'ms'),
      alias(call('toString', source.uuid), 'uuid'),
      alias(windowId, 'window_id'),
    ],
    from: source.from(),
    joins: source.joins(),
    where,
    orderBy: [{ expr: field('actor'), direction: 'ASC' }, { expr: field('ms'), direction: 'ASC' }, { expr: field('uuid'), direction: 'ASC' }],
    limitBy: { count: MAX_EVENTS_PER_PERSON, exprs: [field('actor')] },
  }));
  const byPerson = new Map<string, Map<string, MatchedRecording>>();
  for (const row of rows) {
    const sessions = byPerson.get(row.actor) ?? new Map<string, MatchedRecording>();
    byPerson.set(row.actor, sessions);
    const recording = sessions.get(row.session_id) ?? { session_id: row.session_id, events: [] };
    sessions.set(row.session_id, recording);
    recording.events.push({ timestamp: djangoTime(Number(row.ms)), uuid: row.uuid, window_id: row.window_id ?? null });
  }
  return new Map([...byPerson].map(([actor, sessions]) => [actor, [...sessions.values()]]));
}

/** The events that count: the series (one, when a trends point names it), a retention's two entities, or any event (paths). */
function entitiesOf(query: InsightQuery, target: JsonObject): Entity[] | null {
  if (query.kind === 'RetentionQuery') return [query.retentionFilter.targetEntity, query.retentionFilter.returningEntity];
  if (!('series' in query)) return null;
  const series = query.series as readonly Entity[];
  const index = query.kind === 'TrendsQuery' && typeof target.series === 'number' ? target.series : null;
  return index !== null && series[index] ? [series[index]] : [...series];
}

/** The insight's date range (a retention's periods after it too); a trends point: its bucket. */
function windowOf(query: InsightQuery, target: JsonObject, context: QueryContext): { from: string; to: string } | null {
  if (!('dateRange' in query)) return null;
  const clock = { timezone: context.project.timezone, weekStartDay: context.project.weekStartDay, now: context.now };
  const interval: Interval = 'interval' in query && typeof query.interval === 'string' ? (query.interval as Interval) : 'day';
  const range = resolveDateRange(query.dateRange, clock, { interval, earliest: null });
  let from = range.eventsFrom;
  let to = range.dateTo;
  if (query.kind === 'TrendsQuery' && typeof target.day === 'string') {
    const start = DateTime.fromISO(target.day.trim().replace(' ', 'T'), { zone: context.project.timezone });
    if (start.isValid) {
      from = start;
      to = start.plus({ [`${interval}s`]: 1 }).minus({ milliseconds: 1 });
    }
  }
  if (query.kind === 'RetentionQuery') to = to.plus({ [`${query.retentionFilter.period.toLowerCase()}s`]: query.retentionFilter.totalIntervals });
  return { from: utcText(from), to: utcText(to, true) };
}

/** A UTC instant as PostHog's JSON encoder writes a datetime: seconds, milliseconds only when there are some. */
function djangoTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}
