// Values written as PostHog's Python writes them, where its messages and stored text show them:
// repr() in validation messages ("Invalid value for operator gt: ['a']") and json.dumps() for a
// payload sent as an object (stored as that JSON string: ", " and ": " separators, ASCII only).

/** Python's repr() of a JSON value. */
export function pythonRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pythonFloat(value);
  if (typeof value === 'string') return pythonString(value);
  if (Array.isArray(value)) return `[${value.map(pythonRepr).join(', ')}]`;
  return `{${Object.entries(value as Record<string, unknown>).map(([k, v]) => `${pythonString(k)}: ${pythonRepr(v)}`).join(', ')}}`;
}

function pythonFloat(value: number): string {
  const text = String(value);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

function pythonString(text: string): string {
  // repr() prefers single quotes unless the text holds one and no double quote.
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escaped = text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t');
  return quote + (quote === "'" ? escaped.replace(/'/g, "\\'") : escaped) + quote;
}

/** Python's json.dumps() with its default separators and ensure_ascii. */
export function pythonJsonDumps(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  if (Array.isArray(value)) return `[${value.map(pythonJsonDumps).join(', ')}]`;
  return `{${Object.entries(value).map(([k, v]) => `${pythonJsonDumps(k)}: ${pythonJsonDumps(v)}`).join(', ')}}`;
}
