// The actors behind one correlation item (PostHog's FunnelCorrelationActorsQuery):
// `funnelCorrelationPersonConverted` picks the converters or the drop-offs, and
// `funnelCorrelationPersonEntity` (an event, with its `properties` for an event-property item) or
// `funnelCorrelationPropertyValues` (person or group property values) the item.
import { actorPage } from '../../actors/load.js';
import { alias, and, call, constant, eq, field, leftJoin, select, subquery } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { latestGroups, latestPersons } from '../../catalog/latest.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { fail, isObject, join, readArray, readBoolean, readObject, readString, type JsonObject } from '../../nodes/read-json.js';
import type { FunnelCorrelationQuery } from '../../nodes/schema.js';
import { funnelRange } from '../funnels/range.js';
import type { ActorsOutput, ActorsPageRequest } from '../kind.js';
import { entrantEvents, funnelEntrants } from './sql.js';

const num = (n: number) => constant(n, 'Int64');

/** `[{key, value}]` pairs, from property filters as PostHog sends them. */
const MAX_PAIRS = 20;

function readPairs(value: unknown, path: string): { key: string; value: string }[] {
  const items = readArray(value ?? [], path);
  if (items.length > MAX_PAIRS) fail(path, `At most ${MAX_PAIRS} property values are allowed.`, 'max_length');
  return items.map((item, i) => {
    const pair = readObject(item, join(path, i));
    const raw = Array.isArray(pair.value) ? pair.value[0] : pair.value;
    return { key: readString(pair.key, join(join(path, i), 'key'), 400), value: raw === undefined || raw === null ? '' : String(raw) };
  });
}

export async function correlationActors(
  query: FunnelCorrelationQuery, target: JsonObject, context: QueryContext, run: QueryRun, page: ActorsPageRequest,
): Promise<ActorsOutput> {
  if (target.funnelCorrelationPersonConverted === undefined) fail('funnelCorrelationPersonConverted', 'Say whose actors: the converters (true) or the drop-offs (false).', 'required');
  const converted = readBoolean(target.funnelCorrelationPersonConverted, 'funnelCorrelationPersonConverted', false);
  const window = await funnelRange(query.source, context, run);
  const side = eq(field('cr_converted'), num(converted ? 1 : 0));
  let matching;
  if (query.funnelCorrelationType === 'properties') {
    const pairs = readPairs(target.funnelCorrelationPropertyValues, 'funnelCorrelationPropertyValues');
    if (pairs.length === 0) fail('funnelCorrelationPropertyValues', 'Give the property values of the item.', 'required');
    const group = query.source.aggregation_group_type_index ?? null;
    const prefix = group === null ? 'person' : 'group';
    const details = group === null ? latestPersons(['properties']) : latestGroups(group, ['properties']);
    const properties = field(`${prefix}_properties`, 'details');
    matching = select({
      select: [alias(field('cr_actor', 'entrants'), 'actor')],
      from: subquery(funnelEntrants(query, context, window), 'entrants'),
      joins: [leftJoin(subquery(details, 'details'), eq(field(`${prefix}_key`, 'details'), field('cr_actor', 'entrants')))],
      where: and(eq(field('cr_converted', 'entrants'), num(converted ? 1 : 0)), ...pairs.map((p) => eq(call('JSONExtractString', properties, constant(p.key)), constant(p.value)))),
    });
  } else {
    const entity = isObject(target.funnelCorrelationPersonEntity) ? target.funnelCorrelationPersonEntity : null;
    if (!entity) fail('funnelCorrelationPersonEntity', 'Give the event of the item.', 'required');
    const event = readString(entity.event ?? entity.id, 'funnelCorrelationPersonEntity.event', 400);
    const pairs = readPairs(entity.properties, 'funnelCorrelationPersonEntity.properties');
    const events = entrantEvents(query, context, window, () => [], (source) => and(
      eq(source.event, constant(event)),
      ...pairs.map((p): Expr => eq(call('JSONExtractString', source.properties, constant(p.key)), constant(p.value))),
    ));
    matching = select({ select: [alias(field('cr_actor'), 'actor')], distinct: true, from: subquery(events, 'item_events'), where: side });
  }
  const { actors, hasMore } = await actorPage(run, matching, { ...page, groupIndex: query.source.aggregation_group_type_index });
  return { columns: ['person'], results: actors.map(({ actor }) => [actor]), hasMore };
}
