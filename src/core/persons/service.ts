// PostHog's persons resource for the web app and API clients: the project's persons listed with a
// search (the persons page's ActorsQuery underneath, so both agree row for row) and one person by
// id, each in PostHog's Person shape.
import { NotFoundError } from '../../errors.js';
import { personsById, type PersonActor } from '../../query/actors/load.js';
import type { QueryExecutor } from '../../query/execute.js';
import { DEFAULT_DISPLAY_NAME_PROPERTIES } from '../../query/hogql/display-name.js';
import { readPersonsListQuery } from '../../query/runners/persons/read.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { AccessResolver } from '../access.js';
import type { Principal } from '../auth/principal.js';
import { readSettings } from '../projects/view.js';
import type { InsightQueryService } from '../queries/service.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PersonsPage {
  limit: number;
  offset: number;
}

export class PersonsService {
  constructor(
    private readonly access: AccessResolver,
    private readonly queries: InsightQueryService,
    private readonly executor: QueryExecutor,
  ) {}

  /** A page of the project's persons, newest first, narrowed by a search over email, name and ids. */
  async list(principal: Principal, projectParam: string, search: string | null, page: PersonsPage) {
    return this.listIn(await this.access.project(principal, projectParam), search, page);
  }

  /** A page of the project's persons (optionally narrowed by property filters, cohorts included). */
  async listIn(project: ProjectRow, search: string | null, page: PersonsPage, properties: readonly unknown[] = []) {
    const query = readPersonsListQuery({
      kind: 'ActorsQuery', select: ['person'], ...(search ? { search } : {}), ...(properties.length > 0 ? { properties } : {}), limit: page.limit, offset: page.offset,
    }, 'query');
    const outcome = await this.queries.runInProject(project, query);
    const results = (outcome.results as [PersonActor & { is_identified?: boolean }][]).map(([person]) => personView(project, person));
    return { results, hasMore: outcome.hasMore };
  }

  /** One person by the id the list gave them (404 when not in this project). */
  async get(principal: Principal, projectParam: string, idParam: string) {
    const project = await this.access.project(principal, projectParam);
    if (!UUID.test(idParam)) throw new NotFoundError();
    const found = await personsById(this.executor.start(project.id), [idParam.toLowerCase()]);
    const person = found.get(idParam.toLowerCase());
    if (!person) throw new NotFoundError();
    return personView(project, person);
  }
}

/** PostHog's Person: `id` is the person's UUID, `name` the first display-name property set. */
function personView(project: ProjectRow, person: PersonActor & { is_identified?: boolean }) {
  const configured = readSettings(project).person_display_name_properties;
  const keys = Array.isArray(configured) && configured.length > 0 ? (configured as string[]) : DEFAULT_DISPLAY_NAME_PROPERTIES;
  const named = keys.map((key) => person.properties[key]).find((value) => typeof value === 'string' && value !== '');
  return {
    id: person.id,
    uuid: person.id,
    name: (named as string | undefined) ?? person.distinct_ids[0] ?? person.id,
    distinct_ids: person.distinct_ids,
    properties: person.properties,
    created_at: person.created_at,
    is_identified: person.is_identified ?? false,
  };
}
