// Retention as a spreadsheet: one row per cohort (per breakdown value and cohort when broken
// down), its size and the count at each offset, as PostHog's retention table shows it.
import { EMPTY_TABLE, isRecord, list, text, type Item } from '../csv-cells.js';

export function retentionTable(result: unknown): string[][] {
  if (!Array.isArray(result) || result.length === 0 || !result.every(isRow)) return EMPTY_TABLE();
  const rows = result as Item[];
  const withBreakdown = rows.some((row) => row.breakdown_value !== undefined && row.breakdown_value !== null);
  const width = Math.max(...rows.map((row) => list(row.values).length));
  const offsetLabels = list(rows[0]!.values).map((v) => text((v as Item).label));
  const header = ['cohort', ...(withBreakdown ? ['breakdown_value'] : []), 'date', ...Array.from({ length: width }, (_, k) => offsetLabels[k] ?? String(k))];
  return [header, ...rows.map((row) => [
    text(row.label),
    ...(withBreakdown ? [text(row.breakdown_value)] : []),
    text(row.date),
    ...Array.from({ length: width }, (_, k) => text((list(row.values)[k] as Item | undefined)?.count)),
  ])];
}

function isRow(value: unknown): value is Item {
  return isRecord(value) && Array.isArray(value.values) && typeof value.label === 'string';
}
