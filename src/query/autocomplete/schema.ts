// The tables HogQLAutocomplete lists, as data: each of Hoglet's HogQL tables with the fields its
// translator resolves (hogql/translate/tables.ts, sessions.ts, cohort-people.ts), in the order of
// PostHog's schema (posthog/hogql/database/schema/*.py), typed as PostHog's completions print them
// (ClickHouse spelling: String, Int64, DateTime, JSON ...). A field is a column, or a table reached
// through it (a lazy join or virtual table: `pdi`, `person`, `group_0`, `session`), listed with the
// detail "Table". A JSON column names whose property definitions complete its `properties.` path.
// test/query/hogql/autocomplete-posthog-cases.test.ts checks every field listed here resolves.
import { SESSION_FIELD_TYPES } from '../hogql/translate/sessions.js';
import type { HogQLType } from '../hogql/translate/types.js';

/** Whose property definitions a JSON column's keys are: events', persons', one group type's or every group type's. */
export type PropertyOwner = 'event' | 'person' | { readonly group: number } | 'groups';

export type FieldSpec =
  | { readonly kind: 'column'; readonly type: string; readonly properties?: PropertyOwner }
  | { readonly kind: 'table'; readonly table: () => TableSpec };

export interface TableSpec {
  /** The table's name in HogQL (PostHog's to_printed_hogql). */
  readonly name: string;
  readonly fields: Readonly<Record<string, FieldSpec>>;
}

const column = (type: string, properties?: PropertyOwner): FieldSpec => Object.freeze(properties ? { kind: 'column', type, properties } : { kind: 'column', type });
const join = (table: () => TableSpec): FieldSpec => Object.freeze({ kind: 'table', table });
const spec = (name: string, fields: Record<string, FieldSpec>): TableSpec => Object.freeze({ name, fields: Object.freeze(fields) });

/** PostHog's display of a Hoglet type (posthog/hogql/type_system.py's RuntimeType.display). */
const DISPLAY: Readonly<Record<HogQLType, string>> = {
  string: 'String', json: 'JSON', datetime: 'DateTime', integer: 'Int64', float: 'Float64', boolean: 'Boolean', uuid: 'UUID', unknown: 'unknown',
};

export function displayType(type: HogQLType, nullable: boolean): string {
  const shown = DISPLAY[type];
  return nullable && type !== 'unknown' ? `Nullable(${shown})` : shown;
}

/** An event's person (person, pdi.person, poe): PostHog's persons fields that Hoglet reads through the event. */
const EVENT_PERSON = spec('persons', {
  id: column('String'), created_at: column('DateTime'), properties: column('JSON', 'person'), is_identified: column('Boolean'),
});

/** PostHog's EventsPersonSubTable (`poe`): the person columns stored on the event. */
const POE = spec('events', { id: column('UUID'), created_at: column('DateTime'), properties: column('JSON', 'person') });

const PDI = spec('person_distinct_ids', {
  team_id: column('Int64'), distinct_id: column('String'), person_id: column('String'), person: join(() => EVENT_PERSON),
});

const eventGroup = (index: number) => spec('groups', {
  index: column('Int64'), key: column('String'), created_at: column('DateTime'), properties: column('JSON', { group: index }),
});

const SESSIONS = spec('sessions', Object.fromEntries(SESSION_FIELD_TYPES.map((f) => [f.name, column(f.name === '$urls' ? 'Array(String)' : displayType(f.type, f.nullable))])));

const groupFields = (): Record<string, FieldSpec> => {
  const fields: Record<string, FieldSpec> = {};
  for (let index = 0; index < 5; index += 1) {
    fields[`$group_${index}`] = column('String');
    const group = eventGroup(index);
    fields[`group_${index}`] = join(() => group);
  }
  return fields;
};

const EVENTS = spec('events', {
  uuid: column('UUID'), event: column('String'), properties: column('JSON', 'event'), timestamp: column('DateTime'), team_id: column('Int64'),
  distinct_id: column('String'), elements_chain: column('String'), created_at: column('DateTime'), $session_id: column('String'),
  $window_id: column('String'), pdi: join(() => PDI), poe: join(() => POE), person: join(() => EVENT_PERSON), person_id: column('String'),
  ...groupFields(),
  session: join(() => SESSIONS),
});

const PERSONS = spec('persons', {
  id: column('String'), created_at: column('DateTime'), team_id: column('Int64'), properties: column('JSON', 'person'), is_identified: column('Boolean'),
});

const GROUPS = spec('groups', {
  index: column('Int64'), team_id: column('Int64'), key: column('String'), created_at: column('DateTime'), properties: column('JSON', 'groups'),
});

const COHORT_PEOPLE = (name: string) => spec(name, { person_id: column('String'), cohort_id: column('Int64'), person: join(() => EVENT_PERSON) });

/** Every table a FROM may name, by its (dotted) name, in the order the table suggestions list them. */
export const AUTOCOMPLETE_TABLES: ReadonlyMap<string, TableSpec> = new Map([
  ['events', EVENTS],
  ['persons', PERSONS],
  ['person_distinct_ids', spec('person_distinct_ids', { ...PDI.fields })],
  ['groups', GROUPS],
  ['sessions', SESSIONS],
  ['cohort_people', COHORT_PEOPLE('cohort_people')],
  ['cohort_membership', COHORT_PEOPLE('cohort_membership')],
  ['posthog.cohort_membership', COHORT_PEOPLE('posthog.cohort_membership')],
]);

