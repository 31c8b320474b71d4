// An insight's computed result as a CSV a person opens in a spreadsheet: its kind's table
// (query/runners/*/csv.ts) under the insight's title. A result of no kind exports as the header alone.
import type { InsightQuery } from '../../query/nodes/schema.js';
import { kindOf } from '../../query/runners/registry.js';
import { csvLine } from '../csv-cell.js';

export function seriesCsv(result: unknown, query: InsightQuery | null, options: { title?: string | null }): string {
  const lines: string[][] = options.title ? [[options.title]] : [];
  lines.push(...(query ? kindOf(query).csv(result) : [['series']]));
  // Every cell, title and labels included, holds text from whoever named the events: csvLine
  // makes each one spreadsheet-safe.
  return lines.map(csvLine).join('');
}
