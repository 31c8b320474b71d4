// PostHog's persons resource (/api/projects/:project_id/persons/: list with ?search=, one person,
// /persons/values/?key=) and event property values (/events/values/?key=), which the web app's
// filters offer; also under /api/environments/.
import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { linkTo, parseLimitOffset } from '../pagination.js';
import { mountActivityRoutes } from './activity-routes.js';
import { AnyObject, NoBody, errorResponses } from '../schemas/common.js';

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
const DeleteQuery = Type.Object({
  delete_events: Type.Optional(Type.String()),
  delete_recordings: Type.Optional(Type.String()),
  keep_person: Type.Optional(Type.String()),
});
const BulkDeleteBody = Type.Object({
  ids: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  distinct_ids: Type.Optional(Type.Union([Type.Array(Type.String()), Type.Null()])),
  delete_events: Type.Optional(Type.Unknown()),
  delete_recordings: Type.Optional(Type.Unknown()),
  keep_person: Type.Optional(Type.Unknown()),
});
const BulkDeleteSummary = Type.Object({
  persons_found: Type.Integer(),
  persons_deleted: Type.Integer(),
  events_queued_for_deletion: Type.Boolean(),
  recordings_queued_for_deletion: Type.Boolean(),
  deletion_errors: Type.Array(Type.Object({ person_uuid: Type.String() })),
});
const DeletePropertyBody = Type.Object({ $unset: Type.Optional(Type.Unknown()) });
const EventValue = Type.Object({ name: Type.String() });
const PersonValue = Type.Object({ name: Type.String(), count: Type.Integer() });

function mountPersonRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { persons, definitions, personDeletions } = services;
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

  // Deleting persons (issue 32): PostHog's destroy, bulk_delete and delete_property, person:write.
  app.delete(`${prefix}/:project_id/persons/:id/`, {
    config: { scope: 'person:write' },
    schema: { tags, summary: 'Delete a person (?delete_events also removes their events); 202', params: ItemParams, querystring: DeleteQuery, response: { 202: NoBody(), ...errorResponses } },
    handler: async (request, reply) => {
      await personDeletions.destroy(principalOf(request), request.params.project_id, request.params.id, request.query);
      return reply.code(202).send();
    },
  });

  app.post(`${prefix}/:project_id/persons/bulk_delete/`, {
    config: { scope: 'person:write' },
    schema: { tags, summary: 'Delete up to 1000 persons by ids or distinct_ids (delete_events also removes their events); 202', params: CollectionParams, body: BulkDeleteBody, response: { 202: BulkDeleteSummary, ...errorResponses } },
    handler: async (request, reply) => reply.code(202).send(await personDeletions.bulkDelete(principalOf(request), request.params.project_id, request.body)),
  });

  app.post(`${prefix}/:project_id/persons/:id/delete_property/`, {
    config: { scope: 'person:write' },
    schema: { tags, summary: 'Remove one property of a person ({"$unset": key}); 201', params: ItemParams, body: DeletePropertyBody, response: { 201: Type.Object({ success: Type.Boolean() }), ...errorResponses } },
    handler: async (request, reply) => reply.code(201).send(await personDeletions.deleteProperty(principalOf(request), request.params.project_id, request.params.id, request.body)),
  });

  mountActivityRoutes(app, siteUrl, { collection: `${prefix}/:project_id/persons/`, item: `${prefix}/:project_id/persons/:id/`, tags }, (principal, project, id, page) =>
    personDeletions.activity(principal, project, id, page));

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
