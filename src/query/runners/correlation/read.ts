// Reads a FunnelCorrelationQuery: the funnel inside its FunnelsActorsQuery, what to correlate, and
// the names to take or leave out.
import { fail, join, readArray, readChoice, readObject, readString, type JsonObject } from '../../nodes/read-json.js';
import { readFunnelsQuery } from '../../nodes/read-query.js';
import { CORRELATION_TYPES, type FunnelCorrelationQuery } from '../../nodes/schema.js';

const MAX_NAMES = 100;

export function readCorrelationQuery(node: JsonObject, path: string): FunnelCorrelationQuery {
  const sourcePath = join(path, 'source');
  const actors = readObject(node.source, sourcePath);
  if (actors.kind !== 'FunnelsActorsQuery') fail(join(sourcePath, 'kind'), 'The source must be a FunnelsActorsQuery around the funnel.', 'invalid_choice');
  const funnelPath = join(sourcePath, 'source');
  const funnel = readFunnelsQuery(readObject(actors.source, funnelPath), funnelPath);
  if (funnel.series.length < 2) fail(join(funnelPath, 'series'), 'Correlation compares who converted with who dropped off: the funnel needs at least two steps.', 'min_length');
  if (funnel.breakdownFilter) fail(join(funnelPath, 'breakdownFilter'), 'Correlation of a funnel with a breakdown is not supported; remove the breakdown.');
  if (funnel.funnelsFilter.funnelVizType !== 'steps') fail(join(funnelPath, 'funnelsFilter.funnelVizType'), 'Correlation reads a steps funnel.');
  const type = readChoice(node.funnelCorrelationType, join(path, 'funnelCorrelationType'), CORRELATION_TYPES, 'events');
  const names = (key: string) => readNames(node[key], join(path, key));
  const query: FunnelCorrelationQuery = Object.freeze({
    kind: 'FunnelCorrelationQuery',
    source: funnel,
    funnelCorrelationType: type,
    funnelCorrelationNames: names('funnelCorrelationNames'),
    funnelCorrelationExcludeNames: names('funnelCorrelationExcludeNames'),
    funnelCorrelationEventNames: names('funnelCorrelationEventNames'),
    funnelCorrelationExcludeEventNames: names('funnelCorrelationExcludeEventNames'),
    funnelCorrelationEventExcludePropertyNames: names('funnelCorrelationEventExcludePropertyNames'),
  });
  if (type === 'properties' && query.funnelCorrelationNames.length === 0) {
    fail(join(path, 'funnelCorrelationNames'), 'Property correlation needs the property names (or ["$all"]).', 'required');
  }
  if (type === 'event_with_properties') {
    if (query.funnelCorrelationEventNames.length === 0) fail(join(path, 'funnelCorrelationEventNames'), 'Event property correlation needs the event names.', 'required');
  }
  return query;
}

function readNames(value: unknown, path: string): readonly string[] {
  if (value === undefined || value === null) return [];
  const items = readArray(value, path);
  if (items.length > MAX_NAMES) fail(path, `At most ${MAX_NAMES} names are allowed.`, 'max_length');
  return Object.freeze(items.map((item, i) => readString(item, join(path, i), 400)));
}
