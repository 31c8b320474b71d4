// Paths as a spreadsheet: one row per edge, in the answer's order.
import { EMPTY_TABLE, isRecord, text } from '../csv-cells.js';

export function pathsTable(result: unknown): string[][] {
  if (!Array.isArray(result) || result.length === 0 || !result.every((edge) => isRecord(edge) && typeof edge.source === 'string')) return EMPTY_TABLE();
  return [
    ['source', 'target', 'value', 'average_conversion_time'],
    ...(result as Record<string, unknown>[]).map((edge) => [text(edge.source), text(edge.target), text(edge.value), text(edge.average_conversion_time)]),
  ];
}
