// Reads a StickinessQuery node with PostHog's defaults: day intervals, intervals one by one, an
// interval counts when the actor has at least one event in it.
import { fail, join, readChoice, readObject, readOptionalInteger, readOptionalObject, type JsonObject } from '../../nodes/read-json.js';
import { readCommon, readCompareFilter, readSeriesList } from '../../nodes/read-query.js';
import { STICKINESS_OPERATORS, type SeriesNode, type StickinessQuery } from '../../nodes/schema.js';

const MAX_SERIES = 50;

export function readStickinessQuery(node: JsonObject, path: string): StickinessQuery {
  const series = readSeriesList(node.series, join(path, 'series'), 1, MAX_SERIES);
  checkMaths(series, join(path, 'series'));
  const filterPath = join(path, 'stickinessFilter');
  const filter = readOptionalObject(node.stickinessFilter, filterPath) ?? {};
  const common = readCommon(node, path);
  const intervalCount = readOptionalInteger(node.intervalCount, join(path, 'intervalCount'), 1, 1000);
  if (intervalCount !== null && intervalCount > 1 && common.interval === 'week') {
    fail(join(path, 'intervalCount'), 'Weeks cannot be grouped with intervalCount; use days or months.');
  }
  return Object.freeze({
    kind: 'StickinessQuery',
    series,
    ...common,
    intervalCount,
    stickinessFilter: Object.freeze({
      computedAs: readChoice(filter.computedAs, join(filterPath, 'computedAs'), ['non_cumulative', 'cumulative'] as const, 'non_cumulative'),
      stickinessCriteria: readCriteria(filter.stickinessCriteria, join(filterPath, 'stickinessCriteria')),
    }),
    compareFilter: readCompareFilter(node.compareFilter, join(path, 'compareFilter')),
  });
}

function readCriteria(value: unknown, path: string): StickinessQuery['stickinessFilter']['stickinessCriteria'] {
  if (value === undefined || value === null) return null;
  const criteria = readObject(value, path);
  const operator = readChoice(criteria.operator, join(path, 'operator'), STICKINESS_OPERATORS, null);
  if (operator === null) fail(join(path, 'operator'), `Give an operator: ${STICKINESS_OPERATORS.join(', ')}.`, 'required');
  const count = readOptionalInteger(criteria.value, join(path, 'value'), 0, 1_000_000_000);
  if (count === null) fail(join(path, 'value'), 'Give the number of events an interval needs.', 'required');
  return Object.freeze({ operator, value: count });
}

/**
 * PostHog's stickiness counts persons, or with `unique_group` the groups of `math_group_type_index`;
 * other maths change nothing there. HogQL aggregation is not supported yet.
 */
function checkMaths(series: readonly SeriesNode[], path: string): void {
  series.forEach((s, i) => {
    if (s.math === 'unique_group' && s.math_group_type_index === undefined) {
      fail(join(join(path, i), 'math_group_type_index'), 'The unique_group math needs a math_group_type_index from 0 to 4: the group type to count.', 'required');
    }
  });
}
