// Event properties the store keeps in their own columns beside the JSON (PostHog's materialized
// columns): the ones web analytics and the usual breakdowns read on every page view. Each column is
// exactly the expression insights read a property with (catalog/fields.ts jsonProperty's extract),
// computed once at insert, so a query reading the column instead of parsing the JSON answers the
// same by construction (src/query/passes/read-materialized-properties.ts swaps them). Parsing 2.8M
// events' JSON for one key took 0.45 s of a 2.2 s web query; the column reads in a few ms.
/** Keys with a column, in the order the columns were added (event-store migration 5). */
export const MATERIALIZED_EVENT_PROPERTIES = ['$pathname', '$browser', '$os', '$device_type', '$geoip_country_code'] as const;

const KEYS: ReadonlySet<string> = new Set(MATERIALIZED_EVENT_PROPERTIES);

/** The column that holds a key's value, or undefined when the key has none. */
export function materializedColumn(key: string): string | undefined {
  return KEYS.has(key) ? `mat_${key}` : undefined;
}

/** The ClickHouse type of every such column and the JSONExtract type argument it is read with. */
export const MATERIALIZED_TYPE = 'Nullable(String)';
