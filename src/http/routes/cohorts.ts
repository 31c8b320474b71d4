// The Cohorts API, mounted under /api/projects/:project_id/cohorts/ and, as PostHog also serves it,
// /api/environments/:project_id/cohorts/. Create and update also take multipart bodies (a static
// cohort's CSV upload in the `csv` field), in this scope only.
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import { MAX_CSV_BYTES } from '../../core/cohorts/csv-ids.js';
import { grantsScope } from '../../core/scopes.js';
import { PermissionDeniedError, ValidationError } from '../../errors.js';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { mountActivityRoutes } from './activity-routes.js';
import { limitOffsetEnvelope, linkTo, parseLimitOffset } from '../pagination.js';
import { Cohort, CohortListQuery, CohortWriteBody, Success } from '../schemas/cohort.js';
import { AnyJson, Paginated, errorResponses } from '../schemas/common.js';
import { PersonPage } from './persons.js';
import type { FastifyRequest } from 'fastify';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });
const PersonsQuery = Type.Object({ limit: Type.Optional(Type.String()), offset: Type.Optional(Type.String()), search: Type.Optional(Type.String({ maxLength: 1000 })) });
/** Multipart fields that hold JSON (the web app sends filters as text beside the file). */
const JSON_FIELDS = new Set(['filters', 'groups', '_create_static_person_ids']);

/** A multipart create or update as the JSON body it stands for, the CSV as bytes. */
async function readMultipart(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const body: Record<string, unknown> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'csv') throw new ValidationError('Only a "csv" file may be uploaded.', part.fieldname.slice(0, 100));
        body.csv = await part.toBuffer();
      } else {
        const text = String(part.value);
        body[part.fieldname] = JSON_FIELDS.has(part.fieldname) && /^\s*[[{]/.test(text) ? JSON.parse(text) : text;
      }
    }
  } catch (error) {
    if (error instanceof ValidationError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new ValidationError(`CSV file is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB. Split it and upload the parts to the same cohort.`, 'csv');
    if (error instanceof SyntaxError) throw new ValidationError(`A JSON field could not be read: ${error.message}`, null);
    throw new ValidationError('The multipart body could not be read.', null);
  }
  request.body = body;
}

function mountCohortRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { cohorts, persons } = services;
  const siteUrl = services.config.siteUrl;
  const collection = `${prefix}/:project_id/cohorts/`;
  const item = `${prefix}/:project_id/cohorts/:id/`;
  const tags = [tag];

  app.get(collection, {
    config: { scope: 'cohort:read' },
    schema: { tags, params: CollectionParams, querystring: CohortListQuery, response: { 200: Paginated(Cohort), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const type = request.query.type === 'static' || request.query.type === 'dynamic' ? request.query.type : null;
      const createdBy = /^\d{1,10}$/.test(request.query.created_by_id ?? '') ? Number(request.query.created_by_id) : null;
      const search = request.query.search?.trim() || null;
      const { count, results } = await cohorts.list(principalOf(request), request.params.project_id, { ...page, search, type, createdById: createdBy });
      return limitOffsetEnvelope(request, siteUrl, page, count, results);
    },
  });

  app.post(collection, {
    config: { scope: 'cohort:write' },
    preValidation: readMultipart,
    schema: { tags, params: CollectionParams, body: CohortWriteBody, response: { 201: Cohort, ...errorResponses } },
    handler: async (request, reply) => reply.code(201).send(await cohorts.create(principalOf(request), request.params.project_id, request.body as never)),
  });

  app.get(item, {
    config: { scope: 'cohort:read' },
    schema: { tags, params: ItemParams, response: { 200: Cohort, ...errorResponses } },
    handler: (request) => cohorts.get(principalOf(request), request.params.project_id, request.params.id),
  });

  app.patch(item, {
    config: { scope: 'cohort:write' },
    preValidation: readMultipart,
    schema: { tags, params: ItemParams, body: CohortWriteBody, response: { 200: Cohort, ...errorResponses } },
    handler: (request) => cohorts.update(principalOf(request), request.params.project_id, request.params.id, request.body as never),
  });

  // PostHog keeps cohorts: DELETE is 405; PATCH {"deleted": true} instead.
  app.delete(item, {
    config: { scope: 'cohort:write' },
    schema: { tags, params: ItemParams, response: errorResponses },
    handler: (request) => cohorts.refuseDelete(principalOf(request), request.params.project_id),
  });

  app.get(`${item}persons/`, {
    config: { scope: 'cohort:read' },
    schema: { tags, summary: "The cohort's persons now, newest first", params: ItemParams, querystring: PersonsQuery, response: { 200: PersonPage, ...errorResponses } },
    handler: async (request) => {
      const principal = principalOf(request);
      if (principal.kind === 'key' && !grantsScope(principal.scopes, 'person:read')) throw new PermissionDeniedError("API key missing required scope 'person:read'");
      const page = parseLimitOffset(request.query);
      const { project, cohort } = await cohorts.forPersons(principal, request.params.project_id, request.params.id);
      const search = request.query.search?.trim() || null;
      const { results, hasMore } = await persons.listIn(project, search, page, [{ type: 'cohort', key: 'id', value: cohort.id }]);
      const next = hasMore ? linkTo(request, siteUrl, { limit: String(page.limit), offset: String(page.offset + page.limit) }) : null;
      const previous = page.offset > 0 ? linkTo(request, siteUrl, { limit: String(page.limit), offset: page.offset - page.limit > 0 ? String(page.offset - page.limit) : null }) : null;
      return { next, previous, results };
    },
  });

  app.patch(`${item}add_persons_to_static_cohort/`, {
    config: { scope: 'cohort:write' },
    schema: { tags, params: ItemParams, body: Type.Object({ person_ids: Type.Optional(AnyJson('person ids (at most 1000)')) }), response: { 200: Success, ...errorResponses } },
    handler: (request) => cohorts.addPersons(principalOf(request), request.params.project_id, request.params.id, request.body),
  });

  app.patch(`${item}remove_person_from_static_cohort/`, {
    config: { scope: 'cohort:write' },
    schema: { tags, params: ItemParams, body: Type.Object({ person_id: Type.Optional(AnyJson('a person id')) }), response: { 200: Success, ...errorResponses } },
    handler: (request) => cohorts.removePerson(principalOf(request), request.params.project_id, request.params.id, request.body),
  });

  // A GET that writes, as PostHog's: a cookie session must send the CSRF token, as on any write.
  app.get(`${item}duplicate_as_static_cohort/`, {
    config: { scope: 'cohort:write', writes: true },
    schema: { tags, params: ItemParams, response: { 200: Cohort, ...errorResponses } },
    handler: (request) => cohorts.duplicateAsStatic(principalOf(request), request.params.project_id, request.params.id),
  });

  mountActivityRoutes(app, siteUrl, { collection, item, tags }, (principal, project, id, page) => cohorts.activity(principal, project, id, page));
}

export async function cohortRoutes(app: HogletApp, services: Services): Promise<void> {
  // Multipart parsing only here: elsewhere a form body stays a 415.
  await app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MAX_CSV_BYTES, files: 1, fields: 20, fieldSize: 1024 * 1024 } });
    mountCohortRoutes(scope as HogletApp, services, '/api/projects', 'cohorts');
    mountCohortRoutes(scope as HogletApp, services, '/api/environments', 'cohorts (environment paths)');
  });
}
