// `person_display_name`, the Person column of PostHog's events and persons tables: the first of the
// project's display-name properties a person has (PostHog's defaults when the project set none),
// else the distinct id (events) or person id (persons), as a HogQL expression over a prefix such as
// `person.properties`.
import type { ProjectSettings } from '../context.js';

/** PostHog's PERSON_DEFAULT_DISPLAY_NAME_PROPERTIES. */
export const DEFAULT_DISPLAY_NAME_PROPERTIES: readonly string[] = ['email', 'Email', '$email', 'name', 'Name', 'username', 'Username', 'UserName'];

const PLAIN_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The column's name in PostHog's tables, label and all. */
export const DISPLAY_NAME_COLUMN = 'person_display_name';

/** `nullIf(toString(<prefix>.<key>), '')` per property: "" falls through to the next one, as PostHog's does. */
function propertyTerms(project: ProjectSettings, prefix: string): string[] {
  const keys = project.personDisplayNameProperties ?? DEFAULT_DISPLAY_NAME_PROPERTIES;
  return keys.map((key) => {
    const name = PLAIN_NAME.test(key) ? key : `\`${key.replaceAll('\\', '\\\\').replaceAll('`', '\\`')}\``;
    return `nullIf(toString(${prefix}.${name}), '')`;
  });
}

/** The display name alone, falling back to `fallback` (a HogQL expression). */
export function displayNameExpr(project: ProjectSettings, prefix: string, fallback: string): string {
  return `coalesce(${[...propertyTerms(project, prefix), fallback].join(', ')})`;
}

/**
 * An ORDER BY item that names the Person column, as the sort PostHog runs for it: by the display
 * name, then `idExpr`; any other item unchanged. In "person_display_name -- Person DESC" the
 * direction follows the label, which the parser would drop as a comment, so it is read here.
 */
export function displayNameOrderItem(item: string, nameExpr: string, idExpr: string): string {
  if (!new RegExp(`^${DISPLAY_NAME_COLUMN}(?:\\s|$)`).test(item.trim())) return item;
  const direction = /\b(ASC|DESC)\s*$/i.exec(item)?.[1]?.toUpperCase() ?? 'ASC';
  return `(${nameExpr}, ${idExpr}) ${direction}`;
}
