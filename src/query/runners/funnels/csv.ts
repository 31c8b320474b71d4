// Funnels as PostHog's legacy export: one row per step (per breakdown value and step when broken
// down). Trends and time-to-convert funnels export as the header alone.
import { EMPTY_TABLE, breakdownText, isRecord, nonEmpty, text, type Item } from '../csv-cells.js';

export function funnelTable(result: unknown): string[][] {
  if (!Array.isArray(result) || result.length === 0) return EMPTY_TABLE();
  if (result.every(isStep)) return stepRows(result, false);
  if (result.every((group) => Array.isArray(group) && group.every(isStep))) return stepRows((result as Item[][]).flat(), true);
  return EMPTY_TABLE();
}

function isStep(value: unknown): value is Item {
  return isRecord(value) && typeof value.order === 'number';
}

function stepRows(steps: Item[], withBreakdown: boolean): string[][] {
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
