// Runs a HogQLQuery: parse (PostHog's parser, off the main thread, cached), translate into the
// query AST (team guard, bound parameters and allow-list apply from there), page the top level as
// PostHog does (no LIMIT: 100 rows and `hasMore`; any LIMIT at most 50,000), run, and answer in
// PostHog's HogQLQueryResponse shape.
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import type { HogQLNode } from '../../hogql/translate/hogql-ast.js';
import { sharedHogQLParser } from '../../hogql/parse/index.js';
import { printHogQL, withValues } from '../../hogql/translate/print-hogql.js';
import { HogQLTranslator } from '../../hogql/translate/translate.js';
import { withPropertyTypes } from '../../hogql/property-type-lookup.js';
import type { Query, Select } from '../../ast/nodes.js';
import type { HogQLQuery } from '../../nodes/schema.js';
import type { RunOutput } from '../kind.js';
import { hogqlTranslateContext } from './translator-context.js';
import { DEFAULT_ROWS, MAX_ROWS, roundedSeconds } from './run-select.js';
import { readRows } from './values.js';


interface Paging {
  readonly query: Query;
  readonly text: HogQLNode;
  /** Set when Hoglet chose the page (no LIMIT in the query): the response's limit/offset/hasMore. */
  readonly page: { readonly limit: number; readonly offset: number } | null;
}

const withNumber = (node: HogQLNode, key: string, value: number): HogQLNode => ({ ...node, [key]: { node: 'Constant', value } });

/** The top level's LIMIT as PostHog sets it. */
function paged(query: Query, root: HogQLNode): Paging {
  if (query.kind === 'select') {
    if (query.limit === undefined) {
      const offset = query.offset ?? 0;
      return {
        query: { ...query, limit: DEFAULT_ROWS + 1, offset },
        text: withNumber(withNumber(root, 'limit', DEFAULT_ROWS + 1), 'offset', offset),
        page: { limit: DEFAULT_ROWS, offset },
      };
    }
    if (query.limit <= MAX_ROWS) return { query, text: root, page: null };
    // Past the cap: one row more than it, so the answer says (hasMore) that rows were left out.
    const offset = query.offset ?? 0;
    // (A LIMIT n % keeps its share in the text; the cap is not a percentage.)
    const text = root['limit_percent'] ? root : withNumber(root, 'limit', MAX_ROWS);
    return { query: { ...query, limit: MAX_ROWS + 1 }, text, page: { limit: MAX_ROWS, offset } };
  }
  // A set of queries: each SELECT of it without a LIMIT gets the default one.
  const limitEach = (q: Query): Query => (q.kind === 'select'
    ? (q.limit === undefined ? { ...q, limit: DEFAULT_ROWS } : { ...q, limit: Math.min(q.limit, MAX_ROWS) }) as Select
    : { ...q, selects: q.selects.map(limitEach) as (typeof q.selects)[number][] });
  return { query: limitEach(query), text: root, page: null };
}

export async function runHogQL(query: HogQLQuery, context: QueryContext, run: QueryRun): Promise<RunOutput> {
  const parseStarted = performance.now();
  const root = await sharedHogQLParser().parse('select', query.query, context.project.id);
  const parseMs = performance.now() - parseStarted;
  const translateStarted = performance.now();
  // Typed properties (Numeric, DateTime, Boolean definitions) read as their types, as PostHog's.
  const translated = await withPropertyTypes(
    run,
    (propertyTypes) => new HogQLTranslator({ ...hogqlTranslateContext(query, context), propertyTypes }).statement(root),
    context.propertyTypeOverrides,
  );
  const { query: tree, text, page } = paged(translated.query, root);
  const translateMs = performance.now() - translateStarted;
  const table = await run.table(tree);
  const rows = readRows(table.types, table.rows);
  const hasMore = page !== null && rows.length > page.limit;
  return {
    results: hasMore ? rows.slice(0, page!.limit) : rows,
    hasMore,
    columns: translated.columns,
    types: translated.columns.map((name, i) => [name, table.types[i] ?? 'Unknown']),
    hogql: printHogQL(withValues(text, query.values)),
    clickhouse: null,
    limit: page?.limit ?? null,
    offset: page?.offset ?? null,
    timings: [{ k: './parse', t: roundedSeconds(parseMs) }, { k: './translate', t: roundedSeconds(translateMs) }],
  };
}

