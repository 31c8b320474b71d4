// Stickiness as a spreadsheet: one row per series (and compared period), one column per count of
// intervals ("1 day", "2 days"...).
import { EMPTY_TABLE, isRecord, list, text, type Item } from '../csv-cells.js';

export function stickinessTable(result: unknown): string[][] {
  if (!Array.isArray(result) || result.length === 0 || !result.every((item) => isRecord(item) && Array.isArray(item.data))) return EMPTY_TABLE();
  const items = result as Item[];
  const width = Math.max(...items.map((item) => list(item.data).length));
  const labels = list(items.find((item) => list(item.labels).length === width)?.labels);
  const name = (item: Item) => (item.compare_label ? `${text(item.label)} (${text(item.compare_label)})` : text(item.label));
  return [
    ['series', ...Array.from({ length: width }, (_, i) => text(labels[i] ?? i + 1))],
    ...items.map((item) => [name(item), ...Array.from({ length: width }, (_, i) => text(list(item.data)[i]))]),
  ];
}
