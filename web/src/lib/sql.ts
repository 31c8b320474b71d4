// SQL insights: a HogQLQuery, bare or inside PostHog's DataVisualizationNode (display plus
// chartSettings.xAxis / yAxis columns), and the answer a HogQLQuery gives (columns, types, rows).
import type { QueryNode } from '../types';

export type SqlDisplay = 'ActionsTable' | 'ActionsLineGraph' | 'ActionsBar' | 'BoldNumber';

export const SQL_DISPLAYS: [SqlDisplay, string][] = [
  ['ActionsTable', 'Table'],
  ['ActionsLineGraph', 'Line chart'],
  ['ActionsBar', 'Bar chart'],
  ['BoldNumber', 'Number'],
];

/** How the answer is drawn: PostHog's display and the x / y columns of its chartSettings. */
export interface SqlViz {
  display: SqlDisplay;
  x: string | null;
  y: string[];
}

/** A HogQLQuery's answer as the app draws it. */
export interface SqlResult {
  columns: string[];
  /** ClickHouse type names, one per column ('UInt64', 'Nullable(String)'...). */
  types: string[];
  results: unknown[][];
  hasMore: boolean;
}

export const isSqlQuery = (query: QueryNode | null | undefined): boolean =>
  query?.kind === 'HogQLQuery' || (query?.kind === 'DataVisualizationNode' && query.source?.kind === 'HogQLQuery');

/** The query as a DataVisualizationNode (a bare HogQLQuery is one drawn as a table), or null. */
export function sqlNodeOf(query: QueryNode | null | undefined): QueryNode | null {
  if (!query || !isSqlQuery(query)) return null;
  return query.kind === 'HogQLQuery' ? { kind: 'DataVisualizationNode', source: query, display: 'ActionsTable' } : query;
}

export function vizOf(node: QueryNode): SqlViz {
  const display = SQL_DISPLAYS.some(([d]) => d === node.display) ? (node.display as SqlDisplay) : 'ActionsTable';
  const settings = node.chartSettings ?? {};
  const y = Array.isArray(settings.yAxis) ? settings.yAxis.map((a: any) => a?.column).filter((c: unknown) => typeof c === 'string') : [];
  return { display, x: typeof settings.xAxis?.column === 'string' ? settings.xAxis.column : null, y };
}

/** The node to save: `base`'s other fields kept, the query, display and axes replaced. */
export function sqlNode(base: QueryNode | null, source: QueryNode, viz: SqlViz): QueryNode {
  const chartSettings: Record<string, unknown> = { ...(base?.chartSettings ?? {}) };
  if (viz.x) chartSettings.xAxis = { column: viz.x };
  else delete chartSettings.xAxis;
  if (viz.y.length) chartSettings.yAxis = viz.y.map((column) => ({ column }));
  else delete chartSettings.yAxis;
  return { ...(base ?? {}), kind: 'DataVisualizationNode', source, display: viz.display, chartSettings };
}

const typeName = (t: unknown): string => (Array.isArray(t) ? String(t[1] ?? '') : String(t ?? ''));

/** Columns, types and rows from a /query/ answer or an insight (whose rows are `result`). */
export function sqlResultOf(body: { results?: unknown; result?: unknown; columns?: unknown; types?: unknown; hasMore?: unknown }): SqlResult | null {
  const rows = body.results ?? body.result;
  if (!Array.isArray(rows)) return null;
  const columns = Array.isArray(body.columns) ? body.columns.map(String) : (rows[0] as unknown[] | undefined)?.map((_, i) => `column ${i + 1}`) ?? [];
  const types = Array.isArray(body.types) ? body.types.map(typeName) : [];
  return { columns, types, results: rows as unknown[][], hasMore: body.hasMore === true };
}

/** What InsightView is handed for a source: a SQL node's whole answer, any other kind's rows. */
export function viewResultOf(source: QueryNode | null, rows: unknown, body: object): unknown {
  if (source?.kind !== 'DataVisualizationNode' || rows === null || rows === undefined) return rows;
  return sqlResultOf({ ...(body as { columns?: unknown; types?: unknown; hasMore?: unknown }), results: rows });
}

export const isNumericType = (type: string): boolean => /^(Nullable\()?(U?Int|Float|Decimal)/.test(type);

/** A first guess at the axes: the first column across, the first numeric other one up. */
export function defaultAxes(result: SqlResult): { x: string | null; y: string[] } {
  const x = result.columns[0] ?? null;
  const numeric = result.columns.find((c, i) => c !== x && isNumericType(result.types[i] ?? ''))
    ?? result.columns.find((c, i) => c !== x && typeof result.results[0]?.[i] === 'number');
  return { x, y: numeric ? [numeric] : [] };
}

/** A cell's text: numbers and strings as they are, other values as JSON, null as "null". */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** 1-based line and column of a character offset, for an error's position. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, offset)).split('\n');
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
}

export const sqlEditorUrl = (project: string, shortId?: string): string =>
  `/project/${project}/sql${shortId ? `?open_insight=${encodeURIComponent(shortId)}` : ''}`;
