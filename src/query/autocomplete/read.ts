// Reads PostHog's HogQLAutocomplete node: the text being typed, its language, the selection
// (startPosition..endPosition, offsets in the text), and what PostHog lets it carry (sourceQuery for
// an expression, globals). The text has HogQLQuery's size limit, the globals a bounded size.
import { fail, isObject, join, readChoice, readOptionalInteger, readString, type JsonObject } from '../nodes/read-json.js';
import { MAX_HOGQL_LENGTH } from '../runners/hogql/read.js';

/** PostHog's HogLanguage values; Hoglet completes hogQL and hogQLExpr (it has no Hog compiler). */
export const AUTOCOMPLETE_LANGUAGES = ['hogQL', 'hogQLExpr', 'hog', 'hogTemplate', 'hogJson', 'liquid'] as const;
export type AutocompleteLanguage = (typeof AUTOCOMPLETE_LANGUAGES)[number];

/** Globals are the editor's own names: at most this many keys at any level, this deep. */
const MAX_GLOBAL_KEYS = 500;
const MAX_GLOBALS_DEPTH = 8;

export interface HogQLAutocompleteRequest {
  readonly language: AutocompleteLanguage;
  readonly query: string;
  readonly startPosition: number;
  readonly endPosition: number;
  /** The SELECT an expression completes in (hogQLExpr): a HogQLQuery's text, `select * from events` for another kind, null without one. */
  readonly sourceQuery: string | null;
  readonly globals: JsonObject | null;
}

function checkGlobals(value: JsonObject, path: string, depth: number): void {
  const keys = Object.keys(value);
  if (keys.length > MAX_GLOBAL_KEYS || depth > MAX_GLOBALS_DEPTH) fail(path, `At most ${MAX_GLOBAL_KEYS} keys, ${MAX_GLOBALS_DEPTH} levels deep.`);
  for (const key of keys) {
    const inner = value[key];
    if (isObject(inner)) checkGlobals(inner, join(path, key), depth + 1);
  }
}

export function readHogQLAutocomplete(node: JsonObject, path: string): HogQLAutocompleteRequest {
  const language = readChoice(node.language, join(path, 'language'), AUTOCOMPLETE_LANGUAGES, null);
  if (language === null) fail(join(path, 'language'), 'This field is required.', 'required');
  const query = readString(node.query ?? '', join(path, 'query'), MAX_HOGQL_LENGTH);
  const startPosition = readOptionalInteger(node.startPosition, join(path, 'startPosition'), 0, query.length);
  const endPosition = readOptionalInteger(node.endPosition, join(path, 'endPosition'), 0, query.length);
  if (startPosition === null) fail(join(path, 'startPosition'), 'This field is required.', 'required');
  if (endPosition === null) fail(join(path, 'endPosition'), 'This field is required.', 'required');
  if (endPosition < startPosition) fail(join(path, 'endPosition'), 'Must not be before startPosition.');
  let sourceQuery: string | null = null;
  const source = node.sourceQuery;
  if (source !== undefined && source !== null) {
    if (!isObject(source)) fail(join(path, 'sourceQuery'), 'Expected a query node.');
    sourceQuery = source.kind === 'HogQLQuery'
      ? readString(source.query ?? '', join(join(path, 'sourceQuery'), 'query'), MAX_HOGQL_LENGTH)
      : 'select * from events';
  }
  const globals = isObject(node.globals) ? node.globals : null;
  if (globals) checkGlobals(globals, join(path, 'globals'), 1);
  return Object.freeze({ language, query, startPosition, endPosition, sourceQuery, globals });
}
