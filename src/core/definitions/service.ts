// Event and property definitions (PostHog's taxonomy endpoints): the names, times and value
// kinds computed from the project's stored events and persons on every request, the edits people
// make (description, tags, verified, hidden, a property's type) kept in the metadata store.
import { NotFoundError, ValidationError } from '../../errors.js';
import {
  ALL_EVENT_NAMES,
  type CountedRows,
  type DefinitionsRepository,
  type EventNameRow,
  type PageWindow,
  type PropertyKeyRow,
  type PropertySource,
} from '../../storage/events/definitions-repository.js';
import type { EventDefinitionRow, PropertyDefinitionRow, WithUsers } from '../../storage/meta/repositories/definition-metadata.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { VisibleProjectRow } from '../../storage/meta/repositories/projects.js';
import type { AccessResolver } from '../access.js';
import { detail, diffChanges, recordActivity } from '../activity.js';
import type { Principal } from '../auth/principal.js';
import { nowIso } from '../tokens.js';
import { applyEdit, LOGGED_FIELDS, loggedFields, UNEDITED, type DefinitionEditInput, type EditableState } from './edits.js';
import { parseEventListParams } from './event-params.js';
import { eventDefinitionId, propertyDefinitionId } from './ids.js';
import { parsePropertyListParams, propertyKeyFilter, type PropertyDefinitionType } from './property-params.js';
import { DATETIME_PATTERN } from './property-type.js';
import { eventDefinitionView, propertyDefinitionView, propertyOwner } from './views.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One page and the total. A page past the last row holds no total, so then the first row of the
 * same listing is read for it (the links of an empty page still need the count).
 */
async function pageWithCount<Row>(read: (page: PageWindow) => Promise<CountedRows<Row>>, page: PageWindow) {
  const result = await read(page);
  if (result.rows.length > 0 || page.offset === 0) return { count: result.total, rows: result.rows };
  return { count: (await read({ limit: 1, offset: 0 })).total, rows: [] };
}

/** How far back property values are looked for (PostHog's: the last 7 days). */
const VALUES_SINCE_DAYS = 7;
const VALUES_LIMIT = 50;

/** One or more strings of a query parameter (`?event_name=a&event_name=b`), else none. */
const stringList = (value: unknown): string[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter((v): v is string => typeof v === 'string' && v !== '');

/** The property key of a values request: required, as PostHog's 400 names it. */
export function valuesKey(query: Record<string, unknown>): string {
  const key = query.key;
  if (typeof key !== 'string' || key === '') throw new ValidationError('Property key is required.', 'key', 'required');
  if (key.length > 400) throw new ValidationError('Ensure this field has no more than 400 characters.', 'key', 'max_length');
  return key;
}

/** The typed part of a value to look for, if any. */
export function valuesContains(query: Record<string, unknown>): string | null {
  return typeof query.value === 'string' && query.value !== '' ? query.value.slice(0, 400) : null;
}

/** Property owners in the order a lookup by id tries them. */
const OWNERS: { type: PropertyDefinitionType; groupTypeIndex: number | null }[] = [
  { type: 'event', groupTypeIndex: null },
  { type: 'person', groupTypeIndex: null },
  ...[0, 1, 2, 3, 4].map((index) => ({ type: 'group' as const, groupTypeIndex: index })),
];

const ALL_KEYS: PageWindow = { limit: 1_000_000, offset: 0 };
const NO_KEY_FILTER = { search: null, excludeNames: [], excludePrefixes: [], requirePrefix: null };

const sourceOf = (type: PropertyDefinitionType, groupTypeIndex: number | null): PropertySource =>
  type === 'event' ? { kind: 'event', onlyEvents: null, seenOn: null } : type === 'group' ? { kind: 'group', groupTypeIndex: groupTypeIndex! } : { kind: 'person' };

/** PostHog's activity-log scopes for definition edits. */
const EVENT_SCOPE = 'EventDefinition';
const PROPERTY_SCOPE = 'PropertyDefinition';

interface FoundProperty {
  type: PropertyDefinitionType;
  groupTypeIndex: number | null;
  row: PropertyKeyRow;
}

export class DefinitionsService {
  constructor(
    private readonly access: AccessResolver,
    private readonly repository: DefinitionsRepository,
    private readonly metadata: Repositories,
  ) {}

  /**
   * The project's event names with the parameters PostHog takes, ordered by name ascending (byte
   * order) unless `ordering` says otherwise; hidden ones left out with exclude_hidden=true, deleted
   * ones until an event of the name arrives again.
   */
  async listEvents(principal: Principal, projectParam: string, query: Record<string, unknown>, page: PageWindow) {
    const project = await this.access.project(principal, projectParam);
    const params = parseEventListParams(query);
    const stored = await this.metadata.definitionMetadata.eventRows(project.id);
    const namesWhere = (test: (row: EventDefinitionRow) => boolean) => stored.filter(test).map((row) => row.name);
    const excludeNames = params.excludeHidden ? namesWhere((row) => row.hidden === 1) : [];
    let onlyNames = params.names;
    if (params.verified === true) {
      const verified = new Set(namesWhere((row) => row.verified === 1));
      onlyNames = (onlyNames ?? [...verified]).filter((name) => verified.has(name));
    } else if (params.verified === false) {
      excludeNames.push(...namesWhere((row) => row.verified === 1));
    }
    const filter = {
      search: params.search,
      posthogEvents: params.posthogEvents,
      excludeNames,
      onlyNames,
      deleted: stored.filter((row) => row.deleted_at !== null).map((row) => ({ name: row.name, at: row.deleted_at! })),
      order: params.order,
    };
    const byId = new Map(stored.map((row) => [row.id, row]));
    const { count, rows } = await pageWithCount((p) => this.repository.eventNames(project.id, filter, p), page);
    return { count, results: rows.map((row) => eventDefinitionView(project.id, row, byId.get(eventDefinitionId(project.id, row.name)))) };
  }

  /** One event definition by the id the list gave it. */
  async getEvent(principal: Principal, projectParam: string, idParam: string) {
    const project = await this.access.project(principal, projectParam);
    const { row, stored } = await this.findEvent(project.id, idParam);
    return eventDefinitionView(project.id, row, stored);
  }

  /** The stored events of the definition `idParam` names and its edits; 404 when there are none. */
  private async findEvent(projectId: number, idParam: string): Promise<{ row: EventNameRow; stored: (EventDefinitionRow & WithUsers) | undefined }> {
    if (!UUID.test(idParam)) throw new NotFoundError();
    const id = idParam.toLowerCase();
    const stored = await this.metadata.definitionMetadata.eventRow(projectId, id);
    const deleted = stored?.deleted_at ? [{ name: stored.name, at: stored.deleted_at }] : [];
    // An edited definition knows its name; otherwise ids are hashes of names, so the names are
    // read (one short GROUP BY) and each id recomputed.
    const { rows } = await this.repository.eventNames(projectId, { ...ALL_EVENT_NAMES, onlyNames: stored ? [stored.name] : null, deleted }, null);
    const row = rows.find((r) => eventDefinitionId(projectId, r.name) === id);
    if (!row) throw new NotFoundError();
    return { row, stored };
  }

  /** PATCH: description, tags, verified, hidden, as PostHog's enterprise serializer takes them. */
  async updateEvent(principal: Principal, projectParam: string, idParam: string, input: DefinitionEditInput) {
    const project = await this.access.project(principal, projectParam);
    const { row, stored } = await this.findEvent(project.id, idParam);
    const now = nowIso();
    const before: EditableState = stored ?? UNEDITED;
    const { property_type: _ignored, ...eventInput } = input;
    const after = applyEdit(before, eventInput, 'event', principal.userId, now);
    const id = eventDefinitionId(project.id, row.name);
    await this.metadata.transaction(async (repos) => {
      await repos.definitionMetadata.saveEvent({ team_id: project.id, id, name: row.name, ...pickEditable(after), updated_at: now, updated_by: principal.userId, deleted_at: null });
      await this.logChange(repos, project, principal, EVENT_SCOPE, id, row.name, null, before, after);
    });
    return eventDefinitionView(project.id, row, await this.metadata.definitionMetadata.eventRow(project.id, id));
  }

  /**
   * DELETE, as PostHog's: the definition is gone (its edits with it) until an event of the name
   * arrives again; Hoglet keeps the events themselves.
   */
  async deleteEvent(principal: Principal, projectParam: string, idParam: string): Promise<void> {
    const project = await this.access.project(principal, projectParam);
    const { row } = await this.findEvent(project.id, idParam);
    const now = nowIso();
    const id = eventDefinitionId(project.id, row.name);
    await this.metadata.transaction(async (repos) => {
      await repos.definitionMetadata.saveEvent({ team_id: project.id, id, name: row.name, ...UNEDITED, updated_at: now, updated_by: principal.userId, deleted_at: now });
      await recordActivity(repos.activityLog, {
        organizationId: project.organization_id,
        projectId: project.id,
        userId: principal.userId,
        scope: EVENT_SCOPE,
        itemId: id,
        activity: 'deleted',
        detail: detail(row.name),
      });
    });
  }

  /** PostHog's "changed" entry with the fields that moved; nothing when none did. */
  private async logChange(
    repos: Repositories,
    project: VisibleProjectRow,
    principal: Principal,
    scope: string,
    id: string,
    name: string,
    type: string | null,
    before: EditableState,
    after: EditableState,
  ) {
    const changes = diffChanges(scope, LOGGED_FIELDS, loggedFields(before), loggedFields(after));
    if (changes.length === 0) return;
    await recordActivity(repos.activityLog, {
      organizationId: project.organization_id,
      projectId: project.id,
      userId: principal.userId,
      scope,
      itemId: id,
      activity: 'changed',
      detail: { ...detail(name, changes), type },
    });
  }

  /**
   * Values an event property had in the last 7 days, most frequent first (at most 50), as
   * PostHog's `/events/values/?key=` answers them: `[{"name": value}]`.
   */
  async eventPropertyValues(principal: Principal, projectParam: string, query: Record<string, unknown>) {
    const project = await this.access.project(principal, projectParam);
    const since = new Date(Date.now() - VALUES_SINCE_DAYS * 86_400_000).toISOString().slice(0, 10);
    const values = await this.repository.eventPropertyValues(project.id, valuesKey(query), {
      contains: valuesContains(query),
      eventNames: stringList(query.event_name),
      since,
      limit: VALUES_LIMIT,
    });
    return values.map((name) => ({ name }));
  }

  /** Values a person property has, with how many persons have each (`/persons/values/?key=`). */
  async personPropertyValues(principal: Principal, projectParam: string, query: Record<string, unknown>) {
    const project = await this.access.project(principal, projectParam);
    const rows = await this.repository.personPropertyValues(project.id, valuesKey(query), { contains: valuesContains(query), limit: VALUES_LIMIT });
    return rows.map((row) => ({ name: row.value, count: row.count }));
  }

  /**
   * Property keys of the project's events or persons, with the query parameters PostHog takes,
   * ordered by name ascending; when `event_names` is given without `filter_by_event_names`, keys
   * seen on those events come first (PostHog's order).
   */
  async listProperties(principal: Principal, projectParam: string, query: Record<string, unknown>, page: PageWindow) {
    const project = await this.access.project(principal, projectParam);
    const params = parsePropertyListParams(query);
    const source: PropertySource =
      params.type === 'event'
        ? { kind: 'event', onlyEvents: params.filterByEventNames ? params.eventNames : null, seenOn: params.eventNames }
        : sourceOf(params.type, params.groupTypeIndex);
    const stored = await this.metadata.definitionMetadata.propertyRows(project.id, propertyOwner(params.type, params.groupTypeIndex));
    const filter = propertyKeyFilter(params);
    const typed = stored.filter((row) => row.property_type !== null);
    const hidden = params.excludeHidden ? stored.filter((row) => row.hidden === 1).map((row) => row.name) : [];
    const keyFilter = {
      ...filter,
      excludeNames: [...filter.excludeNames, ...hidden],
      onlyNames: params.names,
      numerical: params.numerical
        ? { numericNames: typed.filter((row) => row.property_type === 'Numeric').map((row) => row.name), typedNames: typed.map((row) => row.name) }
        : null,
    };
    const byName = new Map(stored.map((row) => [row.name, row]));
    const { count, rows } = await pageWithCount(
      (p) => this.repository.propertyKeys(project.id, source, keyFilter, DATETIME_PATTERN, p),
      page,
    );
    return { count, results: rows.map((row) => propertyDefinitionView(project.id, params.type, row, params.groupTypeIndex, byName.get(row.name))) };
  }

  /** One property definition by the id the list gave it. */
  async getProperty(principal: Principal, projectParam: string, idParam: string) {
    const project = await this.access.project(principal, projectParam);
    const { found, stored } = await this.findProperty(project.id, idParam);
    return propertyDefinitionView(project.id, found.type, found.row, found.groupTypeIndex, stored);
  }

  /**
   * The property `idParam` names: an edited one knows its owner and name; otherwise each owner's
   * keys are read (events, persons, each group type) until one's id matches. 404 when none does.
   */
  private async findProperty(projectId: number, idParam: string): Promise<{ found: FoundProperty; stored: (PropertyDefinitionRow & WithUsers) | undefined }> {
    if (!UUID.test(idParam)) throw new NotFoundError();
    const id = idParam.toLowerCase();
    const stored = await this.metadata.definitionMetadata.propertyRow(projectId, id);
    const owners = stored
      ? OWNERS.filter((o) => propertyOwner(o.type, o.groupTypeIndex) === stored.owner)
      : OWNERS;
    for (const { type, groupTypeIndex } of owners) {
      const filter = { ...NO_KEY_FILTER, onlyNames: stored ? [stored.name] : null };
      const { rows } = await this.repository.propertyKeys(projectId, sourceOf(type, groupTypeIndex), filter, DATETIME_PATTERN, ALL_KEYS);
      const row = rows.find((r) => propertyDefinitionId(projectId, propertyOwner(type, groupTypeIndex), r.name) === id);
      if (row) return { found: { type, groupTypeIndex, row }, stored };
    }
    throw new NotFoundError();
  }

  /** PATCH: description, tags, property_type, verified, hidden (PostHog's enterprise serializer). */
  async updateProperty(principal: Principal, projectParam: string, idParam: string, input: DefinitionEditInput) {
    const project = await this.access.project(principal, projectParam);
    const { found, stored } = await this.findProperty(project.id, idParam);
    const now = nowIso();
    const before: EditableState = stored ?? { ...UNEDITED, property_type: null };
    const after = applyEdit(before, input, 'property', principal.userId, now);
    const owner = propertyOwner(found.type, found.groupTypeIndex);
    const id = propertyDefinitionId(project.id, owner, found.row.name);
    await this.metadata.transaction(async (repos) => {
      await repos.definitionMetadata.saveProperty({
        team_id: project.id,
        id,
        name: found.row.name,
        owner,
        ...pickEditable(after),
        property_type: after.property_type ?? null,
        updated_at: now,
        updated_by: principal.userId,
      });
      await this.logChange(repos, project, principal, PROPERTY_SCOPE, id, found.row.name, found.type, before, after);
    });
    const saved = await this.metadata.definitionMetadata.propertyRow(project.id, id);
    return propertyDefinitionView(project.id, found.type, found.row, found.groupTypeIndex, saved);
  }
}

/** The stored columns of an edited state. */
function pickEditable(state: EditableState) {
  const { description, tags, verified, verified_at, verified_by, hidden } = state;
  return { description, tags, verified, verified_at, verified_by, hidden };
}
