// Analytical queries: PostHog's modern POST /query/ and the legacy /insights/trend/,
// /insights/funnel/ and /insights/retention/ calculation endpoints (JSON body, or the same fields in the query string).
// Legacy filters are converted to the query node at the edge; only the node is ever run.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { NotFoundError, ValidationError } from '../../errors.js';
import { responseBody } from '../../core/queries/results.js';
import { checkDashboardFilters, withDashboardFilters } from '../../core/insights/query-of.js';
import { parseRefreshMode } from '../../query/cache/policy.js';
import { NO_HOGQL, type ActorsOutcome, type QueryOutcome } from '../../core/queries/service.js';
import { isActorsQuery, readActorsQuery } from '../../query/actors/read.js';
import { refuseUnknownKind } from '../../query/nodes/posthog-query-kinds.js';
import { editorKindOf } from '../../core/queries/editor-kinds.js';
import { metadataDeps } from '../../core/queries/hogql-metadata.js';
import { enrichHogQLError } from '../../query/metadata/enrich.js';
import { filtersFromQueryString } from '../../query/nodes/legacy-filters.js';
import { isObject } from '../../query/nodes/read-json.js';
import { readFunnelsQuery } from '../../query/nodes/read-query.js';
import type { InsightQuery } from '../../query/nodes/schema.js';
import type { QueryKind } from '../../query/runners/kind.js';
import { KINDS, kindOfLegacyRequest, readInsightQuery } from '../../query/runners/registry.js';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { linkTo, parseLimitOffset } from '../pagination.js';
import { AnyJson, errorResponses, NoBody } from '../schemas/common.js';

const Params = Type.Object({ project_id: Type.String() });
const StatusParams = Type.Object({ project_id: Type.String(), query_id: Type.String({ maxLength: 200 }) });
const AnyObject = Type.Object({}, { additionalProperties: true });
const QueryBody = Type.Object({
  query: AnyJson('a TrendsQuery, FunnelsQuery or an InsightVizNode around one'),
  refresh: Type.Optional(AnyJson('blocking (default for /query/), async, lazy_async, force_blocking, force_async, force_cache, true, false')),
  async: Type.Optional(AnyJson('legacy: true means refresh=async')),
  client_query_id: Type.Optional(Type.String({ maxLength: 200, pattern: '^[^\\u0000]*$', description: 'names the calculation, for cancel and for polling /query/:id/' })),
  // The one limit context PostHog lets a client choose (its assistant's); the export limits are the server's own.
  filters_override: Type.Optional(AnyJson("a dashboard's filters ({date_from, date_to, properties}) laid over the query, as a dashboard lays them over its tiles")),
  limit_context: Type.Optional(Type.Union([Type.Literal('posthog_ai'), Type.Null()], { description: 'posthog_ai, or absent' })),
}, { additionalProperties: true });

/** The legacy endpoints' body: {result, timezone, is_cached, last_refresh, next, timings}. */
function legacyResponse(outcome: QueryOutcome) {
  return {
    result: outcome.results,
    timezone: outcome.timezone,
    is_cached: false,
    last_refresh: outcome.lastRefresh,
    next: null,
    hogql: NO_HOGQL,
    timings: outcome.timings,
  };
}

/** PostHog's ActorsQueryResponse: rows of [actor, ...the kind's columns], paged. */
function actorsResponse(outcome: ActorsOutcome, clientQueryId: string | null) {
  return {
    results: outcome.results,
    columns: outcome.columns,
    types: null,
    hasMore: outcome.hasMore,
    limit: outcome.limit,
    offset: outcome.offset,
    missing_actors_count: 0,
    hogql: NO_HOGQL,
    timings: outcome.timings,
    is_cached: false,
    last_refresh: outcome.lastRefresh,
    timezone: outcome.timezone,
    query_status: null,
    error: null,
    client_query_id: clientQueryId,
  };
}

/** GET carries the filters in the query string, POST in the body. */
function legacyFilters(request: FastifyRequest): Record<string, unknown> {
  if (request.method === 'GET') return filtersFromQueryString((request.query ?? {}) as Record<string, unknown>);
  const body = request.body ?? {};
  if (!isObject(body)) throw new ValidationError('Expected an object of filters.', null, 'parse_error');
  return body;
}

function mountQueryRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { queries } = services;
  const tags = [tag];

  // PostHog answers 201 with no body whether or not a query with that id was running. Requests
  // that share a calculation cancel alone: the calculation stops when no one waits for it.
  app.post(`${prefix}/:project_id/insights/cancel/`, {
    config: { scope: 'insight:read' },
    schema: { tags, params: Params, response: { 201: NoBody(), ...errorResponses } },
    handler: async (request, reply) => {
      const body = request.body ?? {};
      const id = isObject(body) ? body.client_query_id : undefined;
      if (id === undefined || id === null || id === '') throw new ValidationError('Field is required.', 'client_query_id');
      if (typeof id !== 'string' || id.length > 200) throw new ValidationError('Not a valid string of at most 200 characters.', 'client_query_id');
      const { project } = await services.insights.reader(principalOf(request), request.params.project_id);
      await services.results.cancel(project.id, id);
      return reply.code(201).send();
    },
  });

  // PostHog's query endpoint: blocking unless told otherwise (an absent refresh is not force_cache
  // here); an async mode answers 202 with a query_status to poll.
  app.post(`${prefix}/:project_id/query/`, {
    config: { scope: 'query:read' },
    schema: { tags, params: Params, body: QueryBody, response: { 200: AnyObject, 202: AnyObject, ...errorResponses } },
    handler: async (request, reply) => {
      const { body } = request;
      if (isActorsQuery(body.query)) {
        const actorsRequest = readActorsQuery(body.query, 'query');
        const { project } = await services.insights.reader(principalOf(request), request.params.project_id);
        const outcome = await queries.actors(project, actorsRequest, body.client_query_id);
        return actorsResponse(outcome, body.client_query_id ?? null);
      }
      // HogQLMetadata and HogQLAutocomplete check or complete HogQL: not calculations, never cached.
      const editorKind = editorKindOf(body.query);
      if (editorKind && isObject(body.query)) {
        const editorRequest = editorKind.read(body.query);
        const principal = principalOf(request);
        const { project } = await services.insights.reader(principal, request.params.project_id);
        return editorKind.answer(editorRequest, { principal, projectParam: request.params.project_id, project, queries, definitions: services.definitions });
      }
      // (After the actors kinds, which Hoglet also takes at the top level.)
      refuseUnknownKind(body.query);
      const read = readInsightQuery(body.query, 'query');
      const overrides = body.filters_override === undefined || body.filters_override === null ? null : checkDashboardFilters(body.filters_override);
      const query = overrides ? withDashboardFilters(read, overrides) : read;
      const mode = body.refresh === undefined && body.async === true ? 'async' : parseRefreshMode(body.refresh, 'blocking');
      const { project } = await services.insights.reader(principalOf(request), request.params.project_id);
      const outcome = await services.results.get({ project, query, mode, clientQueryId: body.client_query_id }).catch(async (error: unknown) => {
        // PostHog's 400 for a HogQL query says where and what tables (extra.hogql_metadata).
        throw query.kind === 'HogQLQuery' ? await enrichHogQLError(error, query, metadataDeps(queries, project)) : error;
      });
      const running = outcome.queryStatus !== null && !outcome.queryStatus.complete;
      const payload = outcome.response
        ? { ...responseBody(outcome.response, outcome.isCached), query_status: outcome.queryStatus, error: null, client_query_id: body.client_query_id ?? null }
        : { results: null, cache_key: outcome.cacheKey, is_cached: false, query_status: outcome.queryStatus };
      return reply.code(running ? 202 : 200).send(payload);
    },
  });

  // Polling a background calculation: 202 while it runs, 200 when done, 400 when it failed.
  app.get(`${prefix}/:project_id/query/:query_id/`, {
    config: { scope: 'query:read' },
    schema: { tags, params: StatusParams, response: { 200: AnyObject, 202: AnyObject, 400: AnyObject, ...errorResponses } },
    handler: async (request, reply) => {
      const { project } = await services.insights.reader(principalOf(request), request.params.project_id);
      const status = await services.results.status(project.id, request.params.query_id);
      if (!status) throw new NotFoundError('Query not found.');
      return reply.code(!status.complete ? 202 : status.error ? (status.error_message ? 400 : 500) : 200).send({ query_status: status });
    },
  });

  // Stops a calculation (in the engine too) and forgets its status.
  app.delete(`${prefix}/:project_id/query/:query_id/`, {
    config: { scope: 'query:read' },
    schema: { tags, params: StatusParams, response: { 200: AnyObject, ...errorResponses } },
    handler: async (request) => {
      const { project } = await services.insights.reader(principalOf(request), request.params.project_id);
      const id = request.params.query_id;
      const status = await services.results.status(project.id, id);
      if (status?.complete) return { message: 'Query already complete' };
      await services.results.cancel(project.id, id);
      await services.results.forget(project.id, id);
      return { message: status ? 'Query cancelled' : 'Query not found' };
    },
  });

  // PostHog's legacy calculation endpoints, one per kind: /insights/trend/, /insights/funnel/...
  for (const kind of Object.values(KINDS) as QueryKind<InsightQuery>[]) {
    if (kind.legacyEndpoint === null) continue;
    for (const method of ['GET', 'POST'] as const) {
      app.route({
        method,
        url: `${prefix}/:project_id/insights/${kind.legacyEndpoint}/`,
        config: { scope: 'insight:read' },
        schema: { tags, params: Params, ...(method === 'POST' ? { body: AnyObject } : {}), response: { 200: AnyObject, ...errorResponses } },
        handler: async (request) => {
          const filters = legacyFilters(request);
          const query = kindOfLegacyRequest(kind, filters).fromFilters(filters);
          return legacyResponse(await queries.run(principalOf(request), request.params.project_id, query));
        },
      });
    }
  }

  // Where a funnel step's converted_people_url / dropped_people_url lead.
  app.get(`${prefix}/:project_id/insights/funnel/persons/`, {
    config: { scope: 'insight:read' },
    schema: { tags, params: Params, response: { 200: AnyObject, ...errorResponses } },
    handler: async (request) => {
      const q = (request.query ?? {}) as Record<string, string | undefined>;
      const parsed = (() => {
        try { return JSON.parse(q.query ?? ''); } catch { throw new ValidationError('query must be a FunnelsQuery as JSON.', 'query', 'parse_error'); }
      })();
      const query = readFunnelsQuery(isObject(parsed) ? parsed : {}, 'query');
      const step = Number(q.funnel_step);
      if (!Number.isInteger(step) || step === 0 || step === -1 || Math.abs(step) > query.series.length) {
        throw new ValidationError(`funnel_step must be a step number from 1 to ${query.series.length} (converted) or -2 to -${query.series.length} (dropped).`, 'funnel_step');
      }
      const breakdown = q.funnel_step_breakdown === undefined ? null : parseBreakdown(q.funnel_step_breakdown);
      const page = parseLimitOffset(q, 100);
      const { persons, hasMore } = await queries.funnelPersons(principalOf(request), request.params.project_id, query, {
        funnelStep: step, breakdownValue: breakdown, limit: page.limit, offset: page.offset,
      });
      const siteUrl = services.config.siteUrl;
      return {
        results: persons,
        next: hasMore ? linkTo(request, siteUrl, { limit: String(page.limit), offset: String(page.offset + page.limit) }) : null,
        previous: page.offset > 0 ? linkTo(request, siteUrl, { limit: String(page.limit), offset: page.offset - page.limit > 0 ? String(page.offset - page.limit) : null }) : null,
      };
    },
  });
}

function parseBreakdown(text: string): string | string[] {
  try {
    const value = JSON.parse(text);
    if (typeof value === 'string' || (Array.isArray(value) && value.every((v) => typeof v === 'string'))) return value;
  } catch { /* a bare value */ }
  return text;
}

export function queryRoutes(app: HogletApp, services: Services): void {
  mountQueryRoutes(app, services, '/api/projects', 'queries');
  mountQueryRoutes(app, services, '/api/environments', 'queries (environment paths)');
}
