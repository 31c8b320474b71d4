// Reads a PathsQuery node with PostHog's defaults: every event type, 5 steps, 50 edges. Path
// items from a HogQL expression and drop-off funnel paths are refused until they are supported.
import {
  fail, join, readArray, readBoolean, readChoice, readObject, readOptionalInteger, readOptionalObject, readOptionalString, readString,
  type JsonObject,
} from '../../nodes/read-json.js';
import { readProperties } from '../../nodes/read-properties.js';
import { readDateRange, readFunnelsQuery } from '../../nodes/read-query.js';
import { MAX_HOGQL_EXPRESSION } from '../../nodes/read-properties.js';
import { FUNNEL_PATH_TYPES, PATH_TYPES, type FunnelPaths, type PathCleaningRule, type PathType, type PathsQuery } from '../../nodes/schema.js';

export const DEFAULT_STEP_LIMIT = 5;
export const DEFAULT_EDGE_LIMIT = 50;
/** Bounds on what a request can make the engine do per session path and per answer. */
const MAX_STEP_LIMIT = 100;
const MAX_EDGE_LIMIT = 10_000;
const MAX_RULES = 100;
/** Groupings compile into one multi-pattern matcher per query: kept small. */
const MAX_GROUPINGS = 20;
const GROUPING_LENGTH = 200;
const TEXT_LENGTH = 1_000;

export function readPathsQuery(node: JsonObject, path: string): PathsQuery {
  const filterPath = join(path, 'pathsFilter');
  const filter = readOptionalObject(node.pathsFilter, filterPath) ?? {};
  const types = readTypes(filter.includeEventTypes, join(filterPath, 'includeEventTypes'));
  // PostHog treats 0 as "not set" for the edge limit and weights.
  const positive = (value: unknown, at: string, max: number) => readOptionalInteger(value === 0 ? null : value, at, 1, max);
  return Object.freeze({
    kind: 'PathsQuery',
    dateRange: readDateRange(node.dateRange, join(path, 'dateRange')),
    properties: readProperties(node.properties, join(path, 'properties'), { sessions: true }),
    filterTestAccounts: readBoolean(node.filterTestAccounts, join(path, 'filterTestAccounts'), false),
    pathsFilter: Object.freeze({
      includeEventTypes: types,
      pathsHogQLExpression: readHogQLItem(types, filter.pathsHogQLExpression, join(filterPath, 'pathsHogQLExpression')),
      startPoint: readPoint(filter.startPoint, join(filterPath, 'startPoint')),
      endPoint: readPoint(filter.endPoint, join(filterPath, 'endPoint')),
      // A step limit of 0 is refused (PostHog reads it as the default): no path has no steps.
      stepLimit: readOptionalInteger(filter.stepLimit, join(filterPath, 'stepLimit'), 1, MAX_STEP_LIMIT) ?? DEFAULT_STEP_LIMIT,
      pathGroupings: readTexts(filter.pathGroupings, join(filterPath, 'pathGroupings'), MAX_GROUPINGS, GROUPING_LENGTH),
      excludeEvents: readTexts(filter.excludeEvents, join(filterPath, 'excludeEvents')),
      pathReplacements: readBoolean(filter.pathReplacements, join(filterPath, 'pathReplacements'), false),
      localPathCleaningFilters: readRules(filter.localPathCleaningFilters, join(filterPath, 'localPathCleaningFilters')),
      edgeLimit: positive(filter.edgeLimit, join(filterPath, 'edgeLimit'), MAX_EDGE_LIMIT) ?? DEFAULT_EDGE_LIMIT,
      minEdgeWeight: positive(filter.minEdgeWeight, join(filterPath, 'minEdgeWeight'), Number.MAX_SAFE_INTEGER),
      maxEdgeWeight: positive(filter.maxEdgeWeight, join(filterPath, 'maxEdgeWeight'), Number.MAX_SAFE_INTEGER),
      pathStartKey: readPoint(filter.pathStartKey, join(filterPath, 'pathStartKey')),
      pathEndKey: readPoint(filter.pathEndKey, join(filterPath, 'pathEndKey')),
      pathDropoffKey: readPoint(filter.pathDropoffKey, join(filterPath, 'pathDropoffKey')),
    }),
    funnelPathsFilter: readFunnelPaths(node.funnelPathsFilter, join(path, 'funnelPathsFilter')),
  });
}

function readFunnelPaths(value: unknown, path: string): FunnelPaths | null {
  const filter = readOptionalObject(value, path);
  if (!filter) return null;
  const type = readChoice(filter.funnelPathType, join(path, 'funnelPathType'), FUNNEL_PATH_TYPES, null);
  if (type === null) fail(join(path, 'funnelPathType'), `Give the funnel path type: ${FUNNEL_PATH_TYPES.join(', ')}.`, 'required');
  const sourcePath = join(path, 'funnelSource');
  const source = readFunnelsQuery(readObject(filter.funnelSource, sourcePath), sourcePath);
  const steps = source.series.length;
  const step = readOptionalInteger(filter.funnelStep, join(path, 'funnelStep'), -steps, steps);
  if (step === null || step === 0) fail(join(path, 'funnelStep'), `Give the funnel step, from 1 to ${steps}.`, 'required');
  if (step < 0) fail(join(path, 'funnelStep'), 'Paths of the people who dropped off before a step are not supported yet.');
  // Paths follow persons, one window per person: a group funnel or a funnel counting a person once
  // per breakdown value would not say whose paths or which window.
  if (source.aggregation_group_type_index !== undefined) fail(join(sourcePath, 'aggregation_group_type_index'), 'Funnel paths follow persons: remove the group aggregation.');
  if (source.breakdownFilter) fail(join(sourcePath, 'breakdownFilter'), 'Funnel paths follow a funnel without breakdown: remove it.');
  if (type === 'funnel_path_between_steps' && step < 2) fail(join(path, 'funnelStep'), 'Paths between steps need a step from 2: the paths from the step before it.', 'min_value');
  return Object.freeze({ funnelPathType: type, funnelStep: step, funnelSource: source });
}

function readTypes(value: unknown, path: string): readonly PathType[] {
  if (value === undefined || value === null) return [];
  const types = readArray(value, path).map((item, i) => {
    const text = readString(item, join(path, i), 50);
    if (!(PATH_TYPES as readonly string[]).includes(text)) fail(join(path, i), `"${text}" is not a valid choice.`, 'invalid_choice');
    return text as PathType;
  });
  return Object.freeze([...new Set(types)]);
}

/** The HogQL expression of path items: required with the `hogql` type, ignored without it. */
function readHogQLItem(types: readonly PathType[], value: unknown, path: string): string | null {
  if (!types.includes('hogql')) return null;
  const text = readOptionalString(value, path, MAX_HOGQL_EXPRESSION);
  if (!text?.trim()) fail(path, 'Paths of the hogql type need a pathsHogQLExpression.', 'required');
  return text;
}

function readPoint(value: unknown, path: string): string | null {
  const text = readOptionalString(value, path, TEXT_LENGTH);
  return text === null || text === '' ? null : text;
}

function readTexts(value: unknown, path: string, max = MAX_RULES, length = TEXT_LENGTH): readonly string[] {
  if (value === undefined || value === null) return [];
  const items = readArray(value, path);
  if (items.length > max) fail(path, `At most ${max} are allowed.`, 'max_length');
  return Object.freeze(items.map((item, i) => readString(item, join(path, i), length)));
}

/** Each rule's regex must compile (RE2 refuses some JavaScript syntax too; the engine answers those). */
export function readRules(value: unknown, path: string): readonly PathCleaningRule[] {
  if (value === undefined || value === null) return [];
  const items = readArray(value, path);
  if (items.length > MAX_RULES) fail(path, `At most ${MAX_RULES} rules are allowed.`, 'max_length');
  return Object.freeze(items.map((item, i) => {
    const rulePath = join(path, i);
    const rule = readObject(item, rulePath);
    const regex = readString(rule.regex, join(rulePath, 'regex'), TEXT_LENGTH);
    const alias = readOptionalString(rule.alias, join(rulePath, 'alias'), TEXT_LENGTH) ?? '';
    const problem = ruleProblem({ regex, alias });
    if (problem) fail(join(rulePath, problem.field), problem.detail, problem.code);
    return Object.freeze({ regex, alias });
  }));
}

/**
 * What is wrong with a cleaning rule, or null: a regex that does not compile, or a replacement
 * naming a group (`\\2`) the regex does not have (the engine would refuse the whole query).
 */
export function ruleProblem(rule: PathCleaningRule): { field: 'regex' | 'alias'; detail: string; code: string } | null {
  let groups: number;
  try {
    groups = (new RegExp(`${rule.regex}|`).exec('')?.length ?? 1) - 1;
  } catch {
    return { field: 'regex', detail: `"${rule.regex.slice(0, 100)}" is not a valid regular expression.`, code: 'invalid_regex' };
  }
  const named = [...rule.alias.matchAll(/\\(\d)/g)].map((m) => Number(m[1]));
  const missing = named.find((n) => n > groups);
  return missing === undefined ? null : { field: 'alias', detail: `The replacement names group ${missing}, but the regex has ${groups}.`, code: 'invalid_input' };
}
