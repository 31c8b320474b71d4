// How property values turn into text and numbers for comparison, as the Rust service does
// (`to_string_representation`, `to_f64_representation` in property_matching.rs).

/** Compared text is capped so a huge property value cannot make matching expensive. */
export const MAX_COMPARED_LENGTH = 65_536;

/** A string as itself, anything else as its JSON text (`5`, `true`, `null`, `["a"]`). */
export function valueText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? 'null';
  return text.length > MAX_COMPARED_LENGTH ? text.slice(0, MAX_COMPARED_LENGTH) : text;
}

/** A number as itself, a string when it parses whole as a number (Rust's `str::parse::<f64>`). */
export function valueNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  const text = valueText(value).trim() === valueText(value) ? valueText(value) : '';
  if (!/^[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|inf|infinity|nan)$/i.test(text)) return null;
  const lowered = text.toLowerCase().replace(/^\+/, '');
  if (lowered.endsWith('nan')) return Number.NaN;
  if (lowered.endsWith('inf') || lowered.endsWith('infinity')) return lowered.startsWith('-') ? -Infinity : Infinity;
  return Number(text);
}

/** ASCII-only lower-casing (Rust's `to_ascii_lowercase`), used by the substring operators. */
export function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (upper) => upper.toLowerCase());
}
