// PostHog's HogQLMetadata: is this HogQL valid, and if not, where and why. It parses (the shared
// parser: worker pool, size limits, cache) and translates (translation budget, team guard, allow-
// list) exactly as a HogQLQuery would, and stops there: nothing is sent to the engine, and
// property types are not looked up (they change how a query prints, never whether it is valid).
// An editor asks on every keystroke, so this stays that cheap.
import type { QueryContext } from '../context.js';
import type { HogQLParser } from '../hogql/parse/index.js';
import type { HogQLNode } from '../hogql/translate/hogql-ast.js';
import { HogQLTranslator } from '../hogql/translate/translate.js';
import type { HogQLQuery } from '../nodes/schema.js';
import { hogqlTranslateContext } from '../runners/hogql/translator-context.js';
import { readHogQLQuery } from '../runners/hogql/read.js';
import { hoverNotices } from './hover-notices.js';
import { errorNotice, type HogQLNotice } from './notices.js';
import type { HogQLMetadataRequest } from './read.js';
import { isValidView, tableNames } from './table-names.js';

export interface HogQLMetadataResponse {
  readonly query: string;
  readonly isValid: boolean;
  readonly isValidView: boolean;
  readonly errors: HogQLNotice[];
  readonly warnings: HogQLNotice[];
  readonly notices: HogQLNotice[];
  readonly table_names: string[];
}

export interface MetadataDeps {
  readonly parser: HogQLParser;
  readonly projectId: number;
  /** The project's settings and the definitions a HogQLQuery names (cohorts, actions). */
  readonly contextFor: (query: HogQLQuery) => Promise<QueryContext>;
}

/** A SELECT's translation, as the HogQLQuery runner sets it up (minus property types). */
function translate(root: HogQLNode, query: HogQLQuery, context: QueryContext): QueryContext {
  new HogQLTranslator(hogqlTranslateContext(query, context)).statement(root);
  return context;
}

/** PostHog's hover notices, for a tree that translated (a refused one answers with its error). */
const noticesOf = (root: HogQLNode, context: QueryContext) => hoverNotices(root, context.cohorts ?? new Map(), context.cohortNames ?? new Map());

const EVENTS_SOURCE = 'select * from events';

export async function hogqlMetadata(request: HogQLMetadataRequest, deps: MetadataDeps): Promise<HogQLMetadataResponse> {
  const response = { query: request.query, isValid: true, isValidView: false, errors: [] as HogQLNotice[], warnings: [], notices: [] as HogQLNotice[], table_names: [] as string[] };
  if (request.language !== 'hogQL' && request.language !== 'hogQLExpr') {
    // Hoglet has no Hog compiler; PostHog's words for a language it cannot check.
    return { ...response, isValid: false, errors: [{ message: `Unsupported language: ${request.language}`, start: null, end: null, fix: null }] };
  }
  let root: HogQLNode | null = null;
  try {
    if (request.language === 'hogQL') {
      root = await deps.parser.parse('select', request.query, deps.projectId);
      response.table_names = tableNames(root);
      response.isValidView = isValidView(root);
      const query = readHogQLQuery({ query: request.query, filters: request.filters, values: request.values }, 'query');
      response.notices = noticesOf(root, translate(root, query, await deps.contextFor(query)));
    } else {
      // PostHog appends the expression to its source's SELECT list (SELECT * FROM events without one).
      root = await deps.parser.parse('expr', request.query, deps.projectId);
      const sourceText = request.sourceQuery ?? EVENTS_SOURCE;
      const source = await deps.parser.parse('select', sourceText, deps.projectId);
      if (source.node !== 'SelectQuery') throw new TypeError('the source query is not one SELECT');
      const select = Array.isArray(source['select']) ? source['select'] : [];
      const query = readHogQLQuery({ query: sourceText }, 'query');
      const context = translate({ ...source, select: [...select, root] }, query, await deps.contextFor(query));
      // Only the expression's notices: the source's offsets are in another text.
      response.notices = noticesOf({ ...source, select: [root] }, context);
    }
  } catch (error) {
    response.errors.push(errorNotice(error, root));
  }
  return { ...response, isValid: response.errors.length === 0 };
}
