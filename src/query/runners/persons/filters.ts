// What a persons listing's own fields add to its WHERE: person property filters and fixed
// properties (through `{filters}`), and the search, PostHog's way: the text anywhere in the
// email, the name, the person id or any of the person's distinct ids, ignoring case.
import { and, TRUE } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import { propertyGroupExpr } from '../../filters/properties.js';
import type { FilterTarget } from '../../hogql/translate/translate.js';
import type { PersonsListQuery } from '../../nodes/schema.js';

/** The search's condition, as HogQL over the persons table; `{search}` is the pattern. */
export const SEARCH_HOGQL = 'toString(properties.email) ilike {search} or toString(properties.name) ilike {search} or toString(id) ilike {search} or id in (select person_id from person_distinct_ids where ilike(distinct_id, {search}))';

/** The search as an ILIKE pattern, or null when there is none. */
export const searchPattern = (query: PersonsListQuery): string | null => (query.search ? `%${query.search}%` : null);

export function personsFiltersExpr(query: PersonsListQuery, context: QueryContext, { properties }: FilterTarget): Expr {
  const parts = [query.properties, query.fixedProperties]
    .map((group) => propertyGroupExpr(group, properties, context.project.timezone))
    .filter((part): part is Expr => part !== undefined);
  return parts.length === 0 ? TRUE : and(...parts);
}
