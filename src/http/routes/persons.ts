// PostHog's persons resource (/api/projects/:project_id/persons/: list with ?search=, one person,
// /persons/values/?key=) and event property values (/events/values/?key=), which the web app's
// filters offer; also under /api/environments/.
import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { linkTo, parseLimitOffset } from '../pagination.js';
import { AnyObject, errorResponses } from '../schemas/common.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });
export const Person = Type.Object({
  id: Type.String(),
  uuid: Type.String(),
  name: Type.String(),
  distinct_ids: Type.Array(Type.String()),
  properties: AnyObject,
  created_at: Type.String(),
  is_identified: Type.Boolean(),
});
export const PersonPage = Type.Object({ next: Type.Union([Type.String(), Type.Null()]), previous: Type.Union([Type.String(), Type.Null()]), results: Type.Array(Person) });
const ListQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: 1000 })),
  limit: Type.Optional(Type.String()),
  offset: Type.Optional(Type.String()),
});
const ValuesQuery = Type.Object({
  key: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
  event_name: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
});
const EventValue = Type.Object({ name: Type.String() });
const PersonValue = Type.Object({ name: Type.String(), count: Type.Integer() });

function mountPersonRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { persons, definitions } = services;
  const siteUrl = services.config.siteUrl;
  const tags = [tag];

  app.get(`${prefix}/:project_id/persons/`, {
    config: { scope: 'person:read' },
    schema: { tags, summary: 'Persons, newest first, with ?search= over email, name and ids', params: CollectionParams, querystring: ListQuery, response: { 200: PersonPage, ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const search = request.query.search?.trim() || null;
      const { results, hasMore } = await persons.list(principalOf(request), request.params.project_id, search, page);
      const next = hasMore ? linkTo(request, siteUrl, { limit: String(page.limit), offset: String(page.offset + page.limit) }) : null;
      const previous = page.offset > 0 ? linkTo(request, siteUrl, { limit: String(page.limit), offset: page.offset - page.limit > 0 ? String(page.offset - page.limit) : null }) : null;
      return { next, previous, results };
    },
  });

  app.get(`${prefix}/:project_id/persons/values/`, {
    config: { scope: 'person:read' },
    schema: { tags, summary: "Values of a person property (?key=, ?value= to narrow), most common first", params: CollectionParams, querystring: ValuesQuery, response: { 200: Type.Array(PersonValue), ...errorResponses } },
    handler: (request) => definitions.personPropertyValues(principalOf(request), request.params.project_id, request.query),
  });

  app.get(`${prefix}/:project_id/persons/:id/`, {
    config: { scope: 'person:read' },
    schema: { tags, summary: 'One person by id', params: ItemParams, response: { 200: Person, ...errorResponses } },
    handler: (request) => persons.get(principalOf(request), request.params.project_id, request.params.id),
  });

  app.get(`${prefix}/:project_id/events/values/`, {
    config: { scope: 'query:read' },
    schema: { tags, summary: 'Values of an event property in the last 7 days (?key=, ?value=, ?event_name=), most common first', params: CollectionParams, querystring: ValuesQuery, response: { 200: Type.Array(EventValue), ...errorResponses } },
    handler: (request) => definitions.eventPropertyValues(principalOf(request), request.params.project_id, request.query),
  });
}

export function personRoutes(app: HogletApp, services: Services): void {
  mountPersonRoutes(app, services, '/api/projects', 'persons');
  mountPersonRoutes(app, services, '/api/environments', 'persons (environment paths)');
}
