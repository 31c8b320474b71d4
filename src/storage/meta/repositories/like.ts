// Substring matching for the lists' `search` and `tags` filters, shared so every list takes the
// user's text literally in the same way on SQLite and PostgreSQL.
import { sql, type RawBuilder } from 'kysely';

/** `text` as a literal inside a LIKE pattern: its wildcards and the escape character escaped. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * `expression LIKE '%text%'`, the text taken literally (both engines need the ESCAPE clause for that).
 * A text with a NUL matches nothing: PostgreSQL refuses one in a parameter, and no stored name holds one.
 */
export const containsText = (expression: RawBuilder<unknown>, text: string) =>
  text.includes('\u0000') ? sql<boolean>`1 = 0` : sql<boolean>`${expression} like ${`%${escapeLike(text)}%`} escape '\\'`;

/** Case-insensitive `containsText` over any of `columns` (lower() on both sides, as the insights list does). */
export const anyContains = (columns: readonly string[], text: string) => {
  const needle = text.toLowerCase();
  return columns.map((column) => containsText(sql`lower(${sql.ref(column)})`, needle));
};
