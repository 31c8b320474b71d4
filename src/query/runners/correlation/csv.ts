// Correlation as a spreadsheet: one row per correlated event or property, in the answer's order.
import { EMPTY_TABLE, isRecord, text } from '../csv-cells.js';

export function correlationTable(result: unknown): string[][] {
  const events = isRecord(result) && Array.isArray(result.events) ? (result.events as Record<string, unknown>[]) : [];
  if (events.length === 0) return EMPTY_TABLE();
  return [
    ['event', 'correlation_type', 'odds_ratio', 'success_count', 'failure_count'],
    ...events.map((item) => [text(isRecord(item.event) ? item.event.event : item.event), text(item.correlation_type), text(item.odds_ratio), text(item.success_count), text(item.failure_count)]),
  ];
}
