// An insight's computed result as a CSV a person opens in a spreadsheet, in the shape of
// PostHog's legacy insight export: one row per trends series (one column per date, or a single
// value column for total-value displays), or one row per funnel step. A result of any other
// shape exports as the header alone.
import { csvLine, spreadsheetSafe } from '../csv-cell.js';

type Item = Record<string, unknown>;

export function seriesCsv(result: unknown, options: { title?: string | null }): string {
  const lines: string[][] = options.title ? [[options.title]] : [];
  lines.push(...table(result));
  // Every cell, title and labels included, holds text from whoever named the events.
  return lines.map((cells) => csvLine(cells.map(spreadsheetSafe))).join('');
}

function table(result: unknown): string[][] {
  if (!Array.isArray(result) || result.length === 0) return [['series']];
  // Trends series carry an `order` too, so they are recognised (by `data`) before funnel steps.
  if (result.every(isSeries)) return trendsTable(result);
  if (result.every(isStep)) return funnelTable(result, false);
  if (result.every((group) => Array.isArray(group) && group.every(isStep))) {
    return funnelTable((result as Item[][]).flat(), true);
  }
  return [['series']];
}

function trendsTable(items: Item[]): string[][] {
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

function funnelTable(steps: Item[], withBreakdown: boolean): string[][] {
  const header = ['step', 'name', 'count', 'average_conversion_time', 'median_conversion_time'];
  if (withBreakdown) header.splice(1, 0, 'breakdown_value');
  const rows = steps.map((step) => {
    // `order` counts from 0; people read funnel steps from 1, as PostHog's UI shows them.
    const row = [
      text((step.order as number) + 1),
      nonEmpty(step.custom_name) ?? text(step.name),
      text(step.count),
      text(step.average_conversion_time),
      text(step.median_conversion_time),
    ];
    if (withBreakdown) row.splice(1, 0, breakdownText(step.breakdown_value ?? step.breakdown));
    return row;
  });
  return [header, ...rows];
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

// A multi-property breakdown value is a list; PostHog joins its parts with `::`.
function breakdownText(value: unknown): string {
  return Array.isArray(value) ? value.map(text).join('::') : text(value);
}

function isRecord(value: unknown): value is Item {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isStep(value: unknown): value is Item {
  return isRecord(value) && typeof value.order === 'number';
}

function isSeries(value: unknown): value is Item {
  return isRecord(value) && (Array.isArray(value.data) || value.aggregated_value !== undefined);
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
