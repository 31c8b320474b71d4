// PostHog's session recordings API (/api/projects/:project_id/session_recordings/ and the same
// under /api/environments/): the list, one recording, its snapshots (sources, then each blob's
// lines) and DELETE; read with session_recording:read, deleted with session_recording:write.
// Sharing by link (sharing/, sharing_configuration:read/write): the token (?sharing_access_token=)
// opens that one recording's item and snapshots routes without a key, as PostHog's
// sharing_enabled_actions (retrieve: id and times only; snapshots); never the list (403), nor another recording.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { principalOf, sharingTokenOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { AnyObject, NoBody, errorResponses } from '../schemas/common.js';
import { SharingConfiguration, SharingWriteBody } from '../schemas/insight.js';

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
  console_log_filters: Type.Optional(Type.String()),
});
const SharedQuery = { sharing_access_token: Type.Optional(Type.String({ description: 'read a shared recording without a key' })) };
const ItemQuery = Type.Object(SharedQuery);
const SnapshotsQuery = Type.Object({
  source: Type.Optional(Type.String()),
  blob_key: Type.Optional(Type.String()),
  // PostHog's blob_v2: a range of block indexes in one answer; blob_v2=true asks for the blob_v2 listing.
  start_blob_key: Type.Optional(Type.String()),
  end_blob_key: Type.Optional(Type.String()),
  blob_v2: Type.Optional(Type.String()),
  blob_v2_lts: Type.Optional(Type.String()),
  ...SharedQuery,
});
const RecordingPage = Type.Object({ results: Type.Array(AnyObject), has_next: Type.Boolean(), version: Type.Integer() });

function mountRecordingRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { recordings, recordingSharing } = services;
  const collection = `${prefix}/:project_id/session_recordings/`;
  const item = `${prefix}/:project_id/session_recordings/:session_id/`;
  const tags = [tag];

  /** The one recording a request's sharing token opens (403 for any other), or null when a member asks. */
  const sharedOf = (request: FastifyRequest, projectParam: string, sessionId: string) => {
    const token = sharingTokenOf(request);
    return token === null ? null : recordingSharing.recordingForToken(token, projectParam, sessionId);
  };

  app.get(collection, {
    config: { scope: 'session_recording:read', sharingToken: true },
    schema: { tags, params: CollectionParams, querystring: ListQuery, response: { 200: RecordingPage, ...errorResponses } },
    handler: (request) => (sharingTokenOf(request) !== null ? recordingSharing.refuse() : recordings.list(principalOf(request), request.params.project_id, request.query)),
  });

  app.get(item, {
    config: { scope: 'session_recording:read', sharingToken: true },
    schema: { tags, params: ItemParams, querystring: ItemQuery, response: { 200: AnyObject, ...errorResponses } },
    handler: async (request) => {
      const { project_id, session_id } = request.params;
      const shared = await sharedOf(request, project_id, session_id);
      return shared ? recordingSharing.sharedView(shared) : recordings.get(principalOf(request), project_id, session_id);
    },
  });

  app.get(`${item}snapshots/`, {
    config: { scope: 'session_recording:read', sharingToken: true },
    schema: { tags, params: ItemParams, querystring: SnapshotsQuery, response: { 200: Type.Unknown(), ...errorResponses } },
    handler: async (request, reply) => {
      const { project_id, session_id } = request.params;
      const shared = await sharedOf(request, project_id, session_id);
      const answer = shared
        ? await recordings.snapshotsInProject({ id: shared.teamId }, session_id, request.query)
        : await recordings.snapshots(principalOf(request), project_id, session_id, request.query);
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

  app.get(`${item}sharing/`, {
    config: { scope: 'sharing_configuration:read' },
    schema: { tags, params: ItemParams, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => recordingSharing.get(principalOf(request), request.params.project_id, request.params.session_id),
  });

  app.patch(`${item}sharing/`, {
    config: { scope: 'sharing_configuration:write' },
    schema: { tags, params: ItemParams, body: SharingWriteBody, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => recordingSharing.update(principalOf(request), request.params.project_id, request.params.session_id, request.body),
  });

  app.post(`${item}sharing/refresh/`, {
    config: { scope: 'sharing_configuration:write' },
    schema: { tags, params: ItemParams, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => recordingSharing.refresh(principalOf(request), request.params.project_id, request.params.session_id),
  });
}

export function sessionRecordingRoutes(app: HogletApp, services: Services): void {
  mountRecordingRoutes(app, services, '/api/projects', 'session recordings');
  mountRecordingRoutes(app, services, '/api/environments', 'session recordings (environment paths)');
}
