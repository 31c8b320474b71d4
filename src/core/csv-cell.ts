// Writing CSV the way Python's csv module does by default (PostHog's CSVs come from it):
// QUOTE_MINIMAL with `"` as the quote character, quotes doubled inside a quoted cell, and
// `\r\n` after every record. Every CSV Hoglet writes goes through csvLine, which also makes each
// cell safe to open in a spreadsheet (spreadsheetSafe).

export const CSV_LINE_END = '\r\n';

const NEEDS_QUOTES = /[",\r\n]/;

export function quoteCell(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

// One record, each cell made spreadsheet-safe. A record of a single empty cell is written as `""`,
// as Python does, because a bare empty line would read back as a record with no cells at all.
export function csvLine(cells: readonly string[]): string {
  if (cells.length === 1 && cells[0] === '') return `""${CSV_LINE_END}`;
  return cells.map((cell) => quoteCell(spreadsheetSafe(cell))).join(',') + CSV_LINE_END;
}

const FORMULA_START = /^[=+\-@\t\r]/;
const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

// Spreadsheets run a cell that starts with `=`, `+`, `-` or `@` (and some treat a leading tab
// or CR the same way) as a formula, so an event name or label chosen by whoever sends events
// could execute on the machine of whoever opens the export. A leading `'` makes the cell
// plain text (OWASP's advice). Only text is changed: a cell that is a number as written (`-3`,
// `+1.5e3`, a negative count or a JSON number) is data, not a formula, and stays a number.
export function spreadsheetSafe(text: string): string {
  return FORMULA_START.test(text) && !NUMBER.test(text) ? `'${text}` : text;
}
