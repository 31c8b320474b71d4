// HogQL inside insights: a math_hogql aggregate, a hogql breakdown, a hogql property filter, a
// paths item expression. Their texts are found in the query node and parsed before the run (the
// parser is asynchronous, the runners are not); the parsed trees travel in the query context,
// and each reads over the runner's own events through the same translator as HogQLQuery.
import { InternalError } from '../../errors.js';
import { DEFAULT_NAMES } from '../catalog/fields.js';
import type { QueryContext } from '../context.js';
import { EventSource, isSessionFieldName, sessionFieldText, type HogQLExpressionReader } from '../filters/event-source.js';
import { walkObjects } from '../tree/walk.js';
import { cohortMembers } from '../cohorts/members.js';
import { sharedHogQLParser } from './parse/index.js';
import type { HogQLNode } from './translate/hogql-ast.js';
import { HogQLTranslator } from './translate/translate.js';
import type { QueryRun } from '../execute.js';
import { knownPropertyTypes, loadMissingTypes } from './property-type-lookup.js';
import { KnownPropertyTypes } from './property-types.js';

/** Every HogQL expression text a query node holds, once each. */
export function hogqlTextsOf(query: unknown): string[] {
  const found = new Set<string>();
  walkObjects(query, (node) => {
    if (node.type === 'hogql' && typeof node.key === 'string') found.add(node.key);
    if (node.type === 'session' && typeof node.key === 'string' && isSessionFieldName(node.key)) found.add(sessionFieldText(node.key));
    if (node.math === 'hogql' && typeof node.math_hogql === 'string') found.add(node.math_hogql);
    if (node.breakdown_type === 'hogql' && typeof node.breakdown === 'string') found.add(node.breakdown);
    if (typeof node.pathsHogQLExpression === 'string' && node.pathsHogQLExpression.trim() !== '') found.add(node.pathsHogQLExpression);
    return 'descend';
  });
  return [...found];
}

/** How a runner's EventSource reads the query's HogQL expressions. */
export function hogqlReaderOf(context: QueryContext): HogQLExpressionReader {
  return (text, source) => {
    const node: HogQLNode | undefined = context.hogql?.get(text);
    if (!node) throw new InternalError('hogql_unparsed', 'a HogQL expression of the query was not parsed before the run');
    return translatorFor(context, new KnownPropertyTypes(context.propertyTypes ?? NO_TYPES)).expression(node, source);
  };
}

const NO_TYPES: ReadonlyMap<string, null> = new Map();

function translatorFor(context: QueryContext, propertyTypes: KnownPropertyTypes): HogQLTranslator {
  return new HogQLTranslator({
    timezone: context.project.timezone,
    weekStartDay: context.project.weekStartDay,
    values: {},
    cohortMembers: (id) => cohortMembers(id, context),
    cohortIdByName: (name) => context.cohortNames?.get(name),
    actions: context.actions,
    propertyTypes,
  });
}

/**
 * The context with the types of the properties its HogQL expressions read (Numeric, DateTime,
 * Boolean definitions), found by translating each once: the runners translate synchronously, so
 * the types are read before. A statement runs only for types not read in the last minute.
 */
export async function withHogQLPropertyTypes(context: QueryContext, run: QueryRun): Promise<QueryContext> {
  if (!context.hogql) return context;
  const known = knownPropertyTypes(run.executor, run.teamId, Date.now(), context.propertyTypeOverrides);
  for (const node of context.hogql.values()) {
    try {
      translatorFor(context, known).expression(node, eventSourceFor(context));
    } catch {
      // Refused here, refused in the run too, with its message: nothing to type.
    }
  }
  if (known.asked.size === 0) return context;
  const loaded = known.missing.size > 0 ? await loadMissingTypes(run, known, context.propertyTypeOverrides) : known;
  return { ...context, propertyTypes: loaded.typesOf(known.asked) };
}

/** The events a runner reads, able to read the query's HogQL expressions. */
export function eventSourceFor(context: QueryContext): EventSource {
  return new EventSource(DEFAULT_NAMES, hogqlReaderOf(context), (id) => cohortMembers(id, context), context.pathCleaningRules, context.propertyTypeOverrides);
}

/** The query's HogQL expressions parsed (once each, through the shared parser and its cache); undefined when it has none. */
export async function parseHogQLExpressions(query: unknown, projectId: number): Promise<ReadonlyMap<string, HogQLNode> | undefined> {
  const texts = hogqlTextsOf(query);
  if (texts.length === 0) return undefined;
  const parser = sharedHogQLParser();
  const parsed = await Promise.all(texts.map(async (text) => [text, await parser.parse('expr', text, projectId)] as const));
  return new Map(parsed);
}
