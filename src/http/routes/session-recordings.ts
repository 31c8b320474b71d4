// PostHog's session recordings API (/api/projects/:project_id/session_recordings/ and the same
// under /api/environments/): the list, one recording, its snapshots (sources, then each blob's
// lines) and DELETE; read with session_recording:read, deleted with session_recording:write.
import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { AnyObject, NoBody, errorResponses } from '../schemas/common.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), session_id: Type.String() });
const ListQuery = Type.Object({
  date_from: Type.Optional(Type.String()),
  date_to: Type.Optional(Type.String()),
  person_uuid: Type.Optional(Type.String()),
  session_ids: Type.Optional(Type.String()),
  limit: Type.Optional(Type.String()),
  offset: Type.Optional(Type.String()),
  order: Type.Optional(Type.String()),
  order_direction: Type.Optional(Type.String()),
  having_predicates: Type.Optional(Type.String()),
  // PostHog's RecordingsQuery filters, each JSON in the query string (core/replay/list-filters.ts).
  distinct_ids: Type.Optional(Type.String()),
  events: Type.Optional(Type.String()),
  actions: Type.Optional(Type.String()),
  properties: Type.Optional(Type.String()),
  operand: Type.Optional(Type.String()),
  filter_test_accounts: Type.Optional(Type.String()),
  session_recording_duration: Type.Optional(Type.String()),
  duration_type_filter: Type.Optional(Type.String()),
});
const SnapshotsQuery = Type.Object({ source: Type.Optional(Type.String()), blob_key: Type.Optional(Type.String()) });
const RecordingPage = Type.Object({ results: Type.Array(AnyObject), has_next: Type.Boolean(), version: Type.Integer() });

function mountRecordingRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { recordings } = services;
  const collection = `${prefix}/:project_id/session_recordings/`;
  const item = `${prefix}/:project_id/session_recordings/:session_id/`;
  const tags = [tag];

  app.get(collection, {
    config: { scope: 'session_recording:read' },
    schema: { tags, params: CollectionParams, querystring: ListQuery, response: { 200: RecordingPage, ...errorResponses } },
    handler: (request) => recordings.list(principalOf(request), request.params.project_id, request.query),
  });

  app.get(item, {
    config: { scope: 'session_recording:read' },
    schema: { tags, params: ItemParams, response: { 200: AnyObject, ...errorResponses } },
    handler: (request) => recordings.get(principalOf(request), request.params.project_id, request.params.session_id),
  });

  app.get(`${item}snapshots/`, {
    config: { scope: 'session_recording:read' },
    schema: { tags, params: ItemParams, querystring: SnapshotsQuery, response: { 200: Type.Unknown(), ...errorResponses } },
    handler: async (request, reply) => {
      const { source, blob_key } = request.query;
      const answer = await recordings.snapshots(principalOf(request), request.params.project_id, request.params.session_id, source, blob_key);
      // A blob is PostHog's stored text: one JSON line per rrweb event, sent as it is.
      if (answer.kind === 'blob') return reply.type('application/json').send(answer.body);
      return reply.send(answer.body);
    },
  });

  app.delete(item, {
    config: { scope: 'session_recording:write' },
    schema: { tags, params: ItemParams, response: { 204: NoBody(), ...errorResponses } },
    handler: async (request, reply) => {
      await recordings.delete(principalOf(request), request.params.project_id, request.params.session_id);
      return reply.code(204).send();
    },
  });
}

export function sessionRecordingRoutes(app: HogletApp, services: Services): void {
  mountRecordingRoutes(app, services, '/api/projects', 'session recordings');
  mountRecordingRoutes(app, services, '/api/environments', 'session recordings (environment paths)');
}
