// PostHog answers `?format=csv` on its API with rest_framework_csv's CSVRenderer, which turns any
// JSON response into one table. This reproduces that table:
// - a top-level list is one row per element; anything else (an object, a paginated envelope,
//   a scalar) is a single row; null or an empty list renders as nothing at all;
// - nested objects and lists become dotted column names (`results.0.tags.1`), lists keyed by
//   index; an empty object or list yields no column;
// - the header is every column name of every row, sorted; a missing value is an empty cell.
import { csvLine } from '../../core/csv-cell.js';

export const MAX_CSV_DEPTH = 64;
export const MAX_CSV_CELLS = 100_000;

// Thrown when a response is too deep or too large to tabulate; callers answer with a 4xx.
export class CsvLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CsvLimitError';
  }
}

type Row = Map<string, unknown>;
type Budget = { cellsLeft: number };

export function renderFlattenedCsv(data: unknown): string {
  const top = asJson(data);
  if (top === undefined || top === null) return '';
  const items = Array.isArray(top) ? top.map((item) => asJson(item) ?? null) : [top];
  if (items.length === 0) return '';

  const budget: Budget = { cellsLeft: MAX_CSV_CELLS };
  const itemDepth = Array.isArray(top) ? 2 : 1;
  const rows = items.map((item) => {
    const row: Row = new Map();
    flattenInto(item, [], itemDepth, row, budget);
    return row;
  });

  const columns = new Set<string>();
  for (const row of rows) for (const key of row.keys()) columns.add(key);
  const header = [...columns].sort(byCodePoint);
  // The table is dense: rows with few keys still get a cell in every column.
  if (rows.length * header.length > MAX_CSV_CELLS) throw tooManyCells();

  let out = csvLine(header);
  for (const row of rows) out += csvLine(header.map((key) => pythonStr(row.get(key))));
  return out;
}

function flattenInto(value: unknown, path: string[], depth: number, row: Row, budget: Budget): void {
  if (value === null || typeof value !== 'object') {
    if (--budget.cellsLeft < 0) throw tooManyCells();
    row.set(columnName(path), value);
    return;
  }
  // The depth bound also bounds this recursion, so hostile input cannot overflow the stack.
  if (depth > MAX_CSV_DEPTH) {
    throw new CsvLimitError(`The response is nested more than ${MAX_CSV_DEPTH} levels deep to render as CSV.`);
  }
  const entries: Array<[string, unknown]> = Array.isArray(value)
    ? value.map((item, index) => [String(index), asJson(item) ?? null])
    : Object.entries(value).map(([key, item]) => [key, asJson(item)]);
  for (const [key, child] of entries) {
    if (child === undefined) continue; // a key JSON would have dropped
    path.push(key);
    flattenInto(child, path, depth + 1, row, budget);
    path.pop();
  }
}

// The library prefixes a nested name with its parent's key only when the nested name is not
// empty, so empty keys at the end of a path vanish while those before a named key stay:
// {"a": {"": 1}} is column `a`, {"a": {"": {"b": 1}}} is column `a..b`.
function columnName(path: readonly string[]): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '') end--;
  return path.slice(0, end).join('.');
}

// The value as it would appear in the JSON response: toJSON applied (dates become strings),
// and undefined for what JSON leaves out (undefined, functions, symbols).
function asJson(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && 'toJSON' in value && typeof value.toJSON === 'function') {
    value = (value.toJSON as () => unknown)();
  }
  const type = typeof value;
  return type === 'undefined' || type === 'function' || type === 'symbol' ? undefined : value;
}

// Python's str() of a JSON value, which is what its csv writer puts in a cell. JSON parsed in
// JS keeps no difference between 12 and 12.0, so a float Python would print as "12.0" prints
// as "12" here (and tiny exponents as "1e-7", not "1e-07").
function pythonStr(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'number') {
    if (Number.isNaN(value)) return 'nan';
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  }
  return String(value);
}

// Python sorts str by code point; JS's default sort compares UTF-16 units, which disagrees
// for characters beyond U+FFFF.
function byCodePoint(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length) {
    const ca = a.codePointAt(i)!;
    const cb = b.codePointAt(i)!;
    if (ca !== cb) return ca - cb;
    i += ca > 0xffff ? 2 : 1;
  }
  return a.length - b.length;
}

function tooManyCells(): CsvLimitError {
  return new CsvLimitError(`The response has more than ${MAX_CSV_CELLS} cells to render as CSV.`);
}
