// The persons a static cohort's CSV upload names, read PostHog's way: one column is distinct ids
// (every row, the first too) unless its header says person_id or email; several columns need a
// header naming one of them (person_id preferred, then distinct_id, then email).
import { isUtf8 } from 'node:buffer';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { parse } from 'csv-parse';
import { ValidationError } from '../../errors.js';

export type IdKind = 'person_id' | 'distinct_id' | 'email';

export interface CsvIds {
  readonly kind: IdKind;
  readonly ids: readonly string[];
}

/** The largest CSV accepted (PostHog's request limit). */
export const MAX_CSV_BYTES = 20 * 1024 * 1024;
/** Bytes parsed per turn of the event loop: a 20 MB file is read in ~160 short steps, not one long one. */
const CHUNK_BYTES = 128 * 1024;

const HEADERS: Record<IdKind, readonly string[]> = {
  person_id: ['person_id', 'person-id', 'person .id'],
  distinct_id: ['distinct_id', 'distinct-id'],
  email: ['email', 'e-mail'],
};

const csvError = (detail: string) => new ValidationError(detail, 'csv');

/**
 * The ids a CSV names. Parsed as a stream, a chunk per turn of the event loop, so a large file
 * never holds the server up (a 20 MB file parsed at once blocked every request for seconds).
 */
export async function readCsvIds(bytes: Buffer): Promise<CsvIds> {
  if (bytes.length > MAX_CSV_BYTES) throw csvError(`CSV file is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB. Split it and upload the parts to the same cohort.`);
  if (!isUtf8(bytes)) throw csvError('CSV file encoding is not supported. Please save your file as UTF-8 and try again.');
  const reader = new IdReader();
  const parser = parse({ relax_column_count: true, skip_empty_lines: true, bom: true });
  // Settles when the parser ends or fails; handled at once, so a failure is never left unhandled.
  const outcome = new Promise<unknown>((resolve) => {
    parser.on('readable', () => {
      try {
        for (let record: string[] | null; (record = parser.read() as string[] | null) !== null;) reader.add(record.map((cell) => cell.trim()));
      } catch (error) {
        parser.destroy(error as Error);
      }
    });
    parser.once('error', resolve);
    parser.once('end', () => resolve(null));
    parser.once('close', () => resolve(null));
  });
  for (let at = 0; at < bytes.length && !parser.destroyed; at += CHUNK_BYTES) {
    parser.write(bytes.subarray(at, at + CHUNK_BYTES));
    // Lets requests waiting on the event loop run between chunks.
    await nextTurn();
  }
  if (!parser.destroyed) parser.end();
  const error = await outcome;
  if (error instanceof ValidationError) throw error;
  if (error !== null) throw csvError('CSV file format is invalid. Please check your file format and try again.');
  return reader.result();
}

/**
 * Ids row by row: the first row with a value is the header; one filled cell there means one
 * column (a distinct id unless it says person_id or email), several need a header naming the
 * column (person_id preferred, then distinct_id, then email).
 */
class IdReader {
  private kind: IdKind | null = null;
  /** The column read in a multi-column file; null for one column (a row's first filled cell). */
  private column: number | null = null;
  private readonly ids = new Set<string>();

  add(row: readonly string[]): void {
    if (this.kind === null) this.readHeader(row);
    else this.take(this.column === null ? row.find((cell) => cell !== '') : row[this.column]);
  }

  result(): CsvIds {
    if (this.kind === null) throw csvError('CSV file is empty. Please upload a CSV file with at least one row of data.');
    if (this.ids.size === 0) {
      throw csvError('CSV file contains no valid person IDs, distinct IDs, or email addresses. Please ensure your file has data rows with person IDs, distinct IDs, or email addresses.');
    }
    return { kind: this.kind, ids: [...this.ids] };
  }

  private readHeader(row: readonly string[]): void {
    const filled = row.filter((cell) => cell !== '');
    if (filled.length === 0) return;
    if (filled.length === 1) {
      const kind = kindOfHeader(filled[0]!);
      this.kind = kind === 'person_id' || kind === 'email' ? kind : 'distinct_id';
      // Without a person_id or email header every row is a distinct id, the first one too.
      if (this.kind === 'distinct_id') this.take(filled[0]);
      return;
    }
    const kind = (['person_id', 'distinct_id', 'email'] as const).find((k) => row.some((cell) => kindOfHeader(cell) === k));
    if (!kind) {
      throw csvError(`Multi-column CSV must contain at least one column with a supported ID header: 'person_id', 'Person .id' (PostHog export format), 'distinct_id', 'distinct-id', or 'email'. Found columns: ${filled.join(', ')}`);
    }
    this.kind = kind;
    this.column = row.findIndex((cell) => kindOfHeader(cell) === kind);
  }

  private take(id: string | undefined): void {
    if (id !== undefined && id !== '') this.ids.add(id);
  }
}

const kindOfHeader = (cell: string): IdKind | null =>
  (Object.keys(HEADERS) as IdKind[]).find((kind) => HEADERS[kind].includes(cell.toLowerCase())) ?? null;
