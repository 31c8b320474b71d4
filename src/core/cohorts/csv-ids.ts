// The persons a static cohort's CSV upload names, read PostHog's way: one column is distinct ids
// (every row, the first too) unless its header says person_id or email; several columns need a
// header naming one of them (person_id preferred, then distinct_id, then email).
import { parse } from 'csv-parse/sync';
import { ValidationError } from '../../errors.js';

export type IdKind = 'person_id' | 'distinct_id' | 'email';

export interface CsvIds {
  readonly kind: IdKind;
  readonly ids: readonly string[];
}

/** The largest CSV accepted (PostHog's request limit). */
export const MAX_CSV_BYTES = 20 * 1024 * 1024;

const HEADERS: Record<IdKind, readonly string[]> = {
  person_id: ['person_id', 'person-id', 'person .id'],
  distinct_id: ['distinct_id', 'distinct-id'],
  email: ['email', 'e-mail'],
};

const csvError = (detail: string) => new ValidationError(detail, 'csv');

export function readCsvIds(bytes: Buffer): CsvIds {
  if (bytes.length > MAX_CSV_BYTES) throw csvError(`CSV file is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB. Split it and upload the parts to the same cohort.`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw csvError('CSV file encoding is not supported. Please save your file as UTF-8 and try again.');
  }
  let rows: string[][];
  try {
    rows = parse(text.replace(/^\uFEFF/, ''), { relax_column_count: true, skip_empty_lines: true, bom: true }) as string[][];
  } catch {
    throw csvError('CSV file format is invalid. Please check your file format and try again.');
  }
  const cells = (row: string[]) => row.map((cell) => cell.trim());
  const firstFilled = rows.findIndex((row) => cells(row).some((cell) => cell !== ''));
  if (firstFilled < 0) throw csvError('CSV file is empty. Please upload a CSV file with at least one row of data.');
  rows = rows.slice(firstFilled).map(cells);
  const header = rows[0]!;
  const result = header.filter((cell) => cell !== '').length <= 1 ? singleColumn(rows) : multiColumn(rows);
  if (result.ids.length === 0) {
    throw csvError('CSV file contains no valid person IDs, distinct IDs, or email addresses. Please ensure your file has data rows with person IDs, distinct IDs, or email addresses.');
  }
  return result;
}

const kindOfHeader = (cell: string): IdKind | null =>
  (Object.keys(HEADERS) as IdKind[]).find((kind) => HEADERS[kind].includes(cell.toLowerCase())) ?? null;

function singleColumn(rows: string[][]): CsvIds {
  const first = rows[0]!.find((cell) => cell !== '') ?? '';
  const kind = kindOfHeader(first);
  // Without a person_id or email header every row is a distinct id, the first one too.
  const body = kind === 'person_id' || kind === 'email' ? rows.slice(1) : rows;
  const ids = body.map((row) => row.find((cell) => cell !== '') ?? '').filter((id) => id !== '');
  return { kind: kind === 'person_id' || kind === 'email' ? kind : 'distinct_id', ids: [...new Set(ids)] };
}

function multiColumn(rows: string[][]): CsvIds {
  const header = rows[0]!;
  const kind = (['person_id', 'distinct_id', 'email'] as const).find((k) => header.some((cell) => kindOfHeader(cell) === k));
  if (!kind) {
    const found = header.filter((cell) => cell !== '').join(', ') || 'none';
    throw csvError(`Multi-column CSV must contain at least one column with a supported ID header: 'person_id', 'Person .id' (PostHog export format), 'distinct_id', 'distinct-id', or 'email'. Found columns: ${found}`);
  }
  const column = header.findIndex((cell) => kindOfHeader(cell) === kind);
  const ids = rows.slice(1).map((row) => row[column] ?? '').filter((id) => id !== '');
  return { kind, ids: [...new Set(ids)] };
}
