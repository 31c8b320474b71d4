// PostHog's taxonomy: /api/projects/:project_id/event_definitions/ (list, one by id, PATCH,
// DELETE) and /property_definitions/ (list, one by id, PATCH), also under /api/environments/.
// The project id may be `@current`. Names come from stored events and persons, edits from the
// metadata store (core/definitions/).
import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { limitOffsetEnvelope, parseLimitOffset } from '../pagination.js';
import { errorResponses, NoBody, Paginated } from '../schemas/common.js';
import { DefinitionEditBody, EventDefinition, EventDefinitionListQuery, PropertyDefinition, PropertyDefinitionListQuery } from '../schemas/definition.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });

function mountDefinitionRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { definitions } = services;
  const siteUrl = services.config.siteUrl;
  const tags = [tag];

  app.get(`${prefix}/:project_id/event_definitions/`, {
    config: { scope: 'event_definition:read' },
    schema: {
      tags,
      summary: 'Event names seen in the project, by name',
      params: CollectionParams,
      querystring: EventDefinitionListQuery,
      response: { 200: Paginated(EventDefinition), ...errorResponses },
    },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const { count, results } = await definitions.listEvents(principalOf(request), request.params.project_id, request.query, page);
      return limitOffsetEnvelope(request, siteUrl, page, count, results);
    },
  });

  app.get(`${prefix}/:project_id/event_definitions/:id/`, {
    config: { scope: 'event_definition:read' },
    schema: { tags, summary: 'One event definition by its id', params: ItemParams, response: { 200: EventDefinition, ...errorResponses } },
    handler: (request) => definitions.getEvent(principalOf(request), request.params.project_id, request.params.id),
  });

  app.patch(`${prefix}/:project_id/event_definitions/:id/`, {
    config: { scope: 'event_definition:write' },
    schema: {
      tags,
      summary: "Edit an event definition's description, tags, verified and hidden",
      params: ItemParams,
      body: DefinitionEditBody,
      response: { 200: EventDefinition, ...errorResponses },
    },
    handler: (request) => definitions.updateEvent(principalOf(request), request.params.project_id, request.params.id, request.body),
  });

  app.delete(`${prefix}/:project_id/event_definitions/:id/`, {
    config: { scope: 'event_definition:write' },
    schema: {
      tags,
      summary: 'Delete an event definition: left out (its edits gone) until an event of the name arrives again',
      params: ItemParams,
      response: { 204: NoBody(), ...errorResponses },
    },
    handler: async (request, reply) => {
      await definitions.deleteEvent(principalOf(request), request.params.project_id, request.params.id);
      return reply.code(204).send();
    },
  });

  app.get(`${prefix}/:project_id/property_definitions/`, {
    config: { scope: 'property_definition:read' },
    schema: {
      tags,
      summary: 'Property names seen on events or persons, with their types',
      params: CollectionParams,
      querystring: PropertyDefinitionListQuery,
      response: { 200: Paginated(PropertyDefinition), ...errorResponses },
    },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const { count, results } = await definitions.listProperties(principalOf(request), request.params.project_id, request.query, page);
      return limitOffsetEnvelope(request, siteUrl, page, count, results);
    },
  });

  app.get(`${prefix}/:project_id/property_definitions/:id/`, {
    config: { scope: 'property_definition:read' },
    schema: { tags, summary: 'One property definition by its id', params: ItemParams, response: { 200: PropertyDefinition, ...errorResponses } },
    handler: (request) => definitions.getProperty(principalOf(request), request.params.project_id, request.params.id),
  });

  app.patch(`${prefix}/:project_id/property_definitions/:id/`, {
    config: { scope: 'property_definition:write' },
    schema: {
      tags,
      summary: "Edit a property definition's description, tags, type, verified and hidden",
      params: ItemParams,
      body: DefinitionEditBody,
      response: { 200: PropertyDefinition, ...errorResponses },
    },
    handler: (request) => definitions.updateProperty(principalOf(request), request.params.project_id, request.params.id, request.body),
  });
}

export function definitionRoutes(app: HogletApp, services: Services): void {
  mountDefinitionRoutes(app, services, '/api/projects', 'definitions');
  mountDefinitionRoutes(app, services, '/api/environments', 'definitions (environment paths)');
}
