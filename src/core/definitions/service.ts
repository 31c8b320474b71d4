// Event and property definitions (PostHog's taxonomy endpoints), computed from the project's
// stored events and persons on every request: Hoglet keeps no definitions table.
import { NotFoundError, ValidationError } from '../../errors.js';
import type { CountedRows, DefinitionsRepository, PageWindow, PropertySource } from '../../storage/events/definitions-repository.js';
import type { AccessResolver } from '../access.js';
import type { Principal } from '../auth/principal.js';
import { eventDefinitionId } from './ids.js';
import { parsePropertyListParams, propertyKeyFilter } from './property-params.js';
import { DATETIME_PATTERN } from './property-type.js';
import { searchParam } from './search.js';
import { eventDefinitionView, propertyDefinitionView } from './views.js';

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

export class DefinitionsService {
  constructor(
    private readonly access: AccessResolver,
    private readonly repository: DefinitionsRepository,
  ) {}

  /**
   * Every event name the project has stored, ordered by name ascending (byte order). PostHog orders
   * by recent use and query volume, which Hoglet does not track; by name, paging is deterministic.
   */
  async listEvents(principal: Principal, projectParam: string, searchText: unknown, page: PageWindow) {
    const project = await this.access.project(principal, projectParam);
    const search = searchParam(searchText);
    const { count, rows } = await pageWithCount((p) => this.repository.eventNames(project.id, search, p), page);
    return { count, results: rows.map((row) => eventDefinitionView(project.id, row)) };
  }

  /** One event definition by the id the list gave it. */
  async getEvent(principal: Principal, projectParam: string, idParam: string) {
    const project = await this.access.project(principal, projectParam);
    if (!UUID.test(idParam)) throw new NotFoundError();
    const id = idParam.toLowerCase();
    // Ids are hashes of names, so the names are read (one short GROUP BY) and the id recomputed.
    const { rows } = await this.repository.eventNames(project.id, null, null);
    const row = rows.find((r) => eventDefinitionId(project.id, r.name) === id);
    if (!row) throw new NotFoundError();
    return eventDefinitionView(project.id, row);
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
        : params.type === 'group'
          ? { kind: 'group', groupTypeIndex: params.groupTypeIndex! }
          : { kind: 'person' };
    const filter = propertyKeyFilter(params);
    const { count, rows } = await pageWithCount(
      (p) => this.repository.propertyKeys(project.id, source, filter, DATETIME_PATTERN, p),
      page,
    );
    return { count, results: rows.map((row) => propertyDefinitionView(project.id, params.type, row, params.groupTypeIndex)) };
  }
}
