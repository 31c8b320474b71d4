// Cell text for the kinds' spreadsheet tables: how a value, a list and a breakdown read in a cell.
export type Item = Record<string, unknown>;

export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function isRecord(value: unknown): value is Item {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A multi-property breakdown value is a list; PostHog joins its parts with `::`. */
export function breakdownText(value: unknown): string {
  return Array.isArray(value) ? value.map(text).join('::') : text(value);
}

/** The header alone: what a result of no rows (or an unexpected shape) exports as. */
export const EMPTY_TABLE = (): string[][] => [['series']];
