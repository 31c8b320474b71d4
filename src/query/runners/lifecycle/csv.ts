// Lifecycle as a spreadsheet: one row per status ("$pageview - new"...), one column per date, as
// the trends table lays series out (named by their label, which carries the status).
import { isRecord } from '../csv-cells.js';
import { trendsTable } from '../trends/csv.js';

export function lifecycleTable(result: unknown): string[][] {
  const items = Array.isArray(result) ? result.map((item) => (isRecord(item) ? { ...item, action: undefined } : item)) : result;
  return trendsTable(items);
}
