// Trends as PostHog's legacy export: one row per series, one column per date (or a single value
// column for total-value displays).
import { EMPTY_TABLE, breakdownText, isRecord, list, nonEmpty, text, type Item } from '../csv-cells.js';

export function trendsTable(result: unknown): string[][] {
  if (!Array.isArray(result) || result.length === 0 || !result.every(isSeries)) return EMPTY_TABLE();
  const items = result as Item[];
  const timeSeries = items.some((item) => list(item.data).length > 0);
  if (!timeSeries && items.some((item) => item.aggregated_value !== undefined)) {
    return [['series', 'value'], ...items.map((item) => [seriesName(item), text(item.aggregated_value)])];
  }
  // Columns follow the first series' labels; a series with more points than that (a compare
  // period can be longer) borrows the missing labels from the first series that has them.
  const width = items.reduce((most, item) => Math.max(most, list(item.data).length), list(items[0]!.labels).length);
  const labelAt = (i: number) => items.map((item) => list(item.labels)[i]).find((label) => label !== undefined);
  const header = ['series', ...Array.from({ length: width }, (_, i) => text(labelAt(i)))];
  const rows = items.map((item) => {
    const data = list(item.data);
    return [seriesName(item), ...Array.from({ length: width }, (_, i) => text(data[i]))];
  });
  return [header, ...rows];
}

function isSeries(value: unknown): value is Item {
  return isRecord(value) && (Array.isArray(value.data) || value.aggregated_value !== undefined);
}

// How PostHog labels a series: a custom name over the event name, then its breakdown value and
// which compare period it belongs to.
function seriesName(item: Item): string {
  const action = isRecord(item.action) ? item.action : {};
  let name = nonEmpty(action.custom_name) ?? nonEmpty(item.custom_name) ?? text(item.label);
  if (item.breakdown_value !== undefined && item.breakdown_value !== null) {
    name += ` - ${breakdownText(item.breakdown_value)}`;
  }
  if (item.compare_label !== undefined && item.compare_label !== null) name += ` (${text(item.compare_label)})`;
  return name;
}
