// Capture reads persons, groups and uuids by lists of values that one request can make long (a
// /batch/ of thousands of events). The engine parses a statement's bound values within its
// max_query_size (256 KiB, and the values may be sent hex-escaped, four characters a byte), so a
// long list is read in parts whose values stay far below that.

/**
 * Bytes of formatted values per part, counted high (every byte as if escaped, plus quotes and a
 * comma): four times this stays under 256 KiB.
 */
const PART_BYTES = 56 * 1024;

/** Reads `values` a part at a time and concatenates the rows. */
export async function readInChunks<T extends string, R>(values: readonly T[], read: (part: T[]) => Promise<R[]>): Promise<R[]> {
  const rows: R[] = [];
  let part: T[] = [];
  let bytes = 0;
  for (const value of values) {
    const size = 2 * Buffer.byteLength(value) + 4;
    if (part.length > 0 && bytes + size > PART_BYTES) {
      rows.push(...(await read(part)));
      part = [];
      bytes = 0;
    }
    part.push(value);
    bytes += size;
  }
  if (part.length > 0) rows.push(...(await read(part)));
  return rows;
}
