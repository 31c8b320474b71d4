// The `search` query parameter of the definition lists: a case-insensitive substring of the name.

const MAX_SEARCH_LENGTH = 400;

/** Trimmed and capped; null when absent or blank. */
export function searchParam(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim().slice(0, MAX_SEARCH_LENGTH);
  return text === '' ? null : text;
}
