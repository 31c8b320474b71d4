// Personal API keys (PostHog's PersonalAPIKeyViewSet): a plain list, create (the value shown once),
// change the label or scopes, roll (a new value shown once), delete. A key may only read itself.
import { Type } from 'typebox';
import { peopleServices } from '../../core/people/index.js';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { NoBody, errorResponses } from '../schemas/common.js';
import { PersonalKey, PersonalKeyBody } from '../schemas/people.js';

const ItemParams = Type.Object({ id: Type.String() });

export function personalApiKeyRoutes(app: HogletApp, services: Services): void {
  const { personalKeys } = peopleServices(services);
  const tags = ['personal API keys'];
  const collection = '/api/personal_api_keys/';
  const item = '/api/personal_api_keys/:id/';

  app.get(collection, {
    config: { scope: 'authenticated' },
    schema: { tags, response: { 200: Type.Array(PersonalKey), ...errorResponses } },
    handler: (request) => personalKeys.list(principalOf(request)),
  });

  app.post(collection, {
    config: { scope: 'authenticated' },
    schema: { tags, summary: 'Create a key; its value is in this answer only', body: PersonalKeyBody, response: { 201: PersonalKey, ...errorResponses } },
    handler: async (request, reply) => reply.code(201).send(await personalKeys.create(principalOf(request), request.body)),
  });

  app.get(item, {
    config: { scope: 'authenticated' },
    schema: { tags, params: ItemParams, response: { 200: PersonalKey, ...errorResponses } },
    handler: (request) => personalKeys.get(principalOf(request), request.params.id),
  });

  for (const method of ['patch', 'put'] as const) {
    app[method](item, {
      config: { scope: 'authenticated' },
      schema: { tags, params: ItemParams, body: PersonalKeyBody, response: { 200: PersonalKey, ...errorResponses } },
      handler: (request) => personalKeys.update(principalOf(request), request.params.id, request.body),
    });
  }

  app.post(`${item}roll/`, {
    config: { scope: 'authenticated' },
    schema: { tags, summary: 'A new value for the key (in this answer only); the old one stops working', params: ItemParams, response: { 200: PersonalKey, ...errorResponses } },
    handler: (request) => personalKeys.roll(principalOf(request), request.params.id),
  });

  app.delete(item, {
    config: { scope: 'authenticated' },
    schema: { tags, params: ItemParams, response: { 204: NoBody(), ...errorResponses } },
    handler: async (request, reply) => {
      await personalKeys.delete(principalOf(request), request.params.id);
      return reply.code(204).send();
    },
  });
}
