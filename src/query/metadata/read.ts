// Reads PostHog's HogQLMetadata node: the text to check, its language, and what PostHog lets it
// carry (sourceQuery for an expression, filters and values for a SELECT). debug, globals and
// variables are accepted and change nothing here.
import { MAX_HOGQL_LENGTH } from '../runners/hogql/read.js';
import { fail, isObject, join, readBoolean, readChoice, readString, type JsonObject } from '../nodes/read-json.js';

export const HOG_LANGUAGES = ['hogQL', 'hogQLExpr', 'hog', 'hogTemplate', 'hogJson', 'liquid'] as const;
export type HogLanguage = (typeof HOG_LANGUAGES)[number];

export interface HogQLMetadataRequest {
  readonly language: HogLanguage;
  readonly query: string;
  /** The SELECT an expression is checked in (hogQLExpr): a HogQLQuery's text, or null for events. */
  readonly sourceQuery: string | null;
  /** The SELECT's `filters` and `values`, as a HogQLQuery carries them. */
  readonly filters: JsonObject | null;
  readonly values: JsonObject | null;
  readonly debug: boolean;
}

export function readHogQLMetadata(node: JsonObject, path: string): HogQLMetadataRequest {
  const language = readChoice(node.language, join(path, 'language'), HOG_LANGUAGES, null);
  if (language === null) fail(join(path, 'language'), 'This field is required.', 'required');
  // An empty text is a question an editor asks on its first keystroke: the answer says it is invalid.
  const query = readString(node.query ?? '', join(path, 'query'), MAX_HOGQL_LENGTH);
  const source = node.sourceQuery;
  let sourceQuery: string | null = null;
  if (source !== undefined && source !== null) {
    if (!isObject(source)) fail(join(path, 'sourceQuery'), 'Expected a query node.');
    // PostHog turns any query node into its SELECT; Hoglet takes a HogQLQuery's text, and reads
    // other kinds' expressions over the events table, as they are.
    if (source.kind === 'HogQLQuery') sourceQuery = readString(source.query, join(join(path, 'sourceQuery'), 'query'), MAX_HOGQL_LENGTH);
  }
  return Object.freeze({
    language,
    query,
    sourceQuery,
    filters: isObject(node.filters) ? node.filters : null,
    values: isObject(node.values) ? node.values : null,
    debug: readBoolean(node.debug, join(path, 'debug'), false),
  });
}
