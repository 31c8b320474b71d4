// Runs a SelectQuery node (PostHog's AST) built by a list query (EventsQuery, ActorsQuery): translate
// it, run it, and cut the extra row that tells whether another page follows.
import type { QueryRun } from '../../execute.js';
import type { HogQLNode } from '../../hogql/translate/hogql-ast.js';
import { printHogQL } from '../../hogql/translate/print-hogql.js';
import { HogQLTranslator, type TranslateContext } from '../../hogql/translate/translate.js';
import { readRows } from './values.js';

/** PostHog's DEFAULT_RETURNED_ROWS and MAX_SELECT_RETURNED_ROWS. */
export const DEFAULT_ROWS = 100;
export const MAX_ROWS = 50_000;

export interface SelectPage {
  readonly rows: unknown[][];
  readonly types: readonly string[];
  readonly columns: readonly string[];
  readonly hasMore: boolean;
  readonly hogql: string;
  readonly translateMs: number;
}

/** `node` asks for `limit + 1` rows; the page is the first `limit`. */
export async function runSelectPage(node: HogQLNode, translate: TranslateContext, run: QueryRun, limit: number): Promise<SelectPage> {
  const started = performance.now();
  const translated = new HogQLTranslator(translate).statement(node);
  const translateMs = performance.now() - started;
  const table = await run.table(translated.query);
  const rows = readRows(table.types, table.rows);
  return {
    rows: rows.slice(0, limit),
    types: table.types,
    columns: translated.columns,
    hasMore: rows.length > limit,
    hogql: printHogQL(node),
    translateMs,
  };
}

export const roundedSeconds = (ms: number): number => Math.round(ms) / 1000;
