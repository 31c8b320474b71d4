// A HogQL answer as a spreadsheet: its rows, values as text (the column names are not part of
// `results`, so the header counts the columns).
import { EMPTY_TABLE, text } from '../csv-cells.js';

export function hogqlTable(result: unknown): string[][] {
  if (!Array.isArray(result) || result.length === 0 || !result.every(Array.isArray)) return EMPTY_TABLE();
  const rows = result as unknown[][];
  const width = Math.max(...rows.map((row) => row.length));
  const cell = (value: unknown) => (value !== null && typeof value === 'object' ? JSON.stringify(value) : text(value));
  return [Array.from({ length: width }, (_, i) => `column ${i + 1}`), ...rows.map((row) => row.map(cell))];
}
