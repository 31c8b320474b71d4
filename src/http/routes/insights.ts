// The Insights API under /api/projects/:project_id/insights/ and /api/environments/:project_id/
// insights/: the resource, its results under PostHog's refresh modes, views, activity and sharing.
// A sharing token (?sharing_access_token=) opens list and retrieve of its one insight without a key.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { InsightInput } from '../../core/insights/input.js';
import { parseInsightListParams } from '../../core/insights/list-params.js';
import { insightQueryOf } from '../../core/insights/query-of.js';
import { seriesCsv } from '../../core/insights/series-csv.js';
import type { InsightReader } from '../../core/insights/service.js';
import { ValidationError } from '../../errors.js';
import { parseRefreshMode, sharedRefreshMode } from '../../query/cache/policy.js';
import type { Services } from '../../services.js';
import { principalOf, sharingTokenOf } from '../auth.js';
import { sendAppPage } from './web-app.js';
import { requestedFormat, sendCsv, sendFormatted, splitCsvSuffix } from '../csv/reply.js';
import { limitOffsetEnvelope, pageNumberEnvelope, parseLimitOffset, parsePageNumber } from '../pagination.js';
import { AnyObject, errorResponses, PageQuery, Paginated } from '../schemas/common.js';
import {
  Insight, InsightListQuery, InsightRetrieveQuery, InsightWriteBody, SharingConfiguration, SharingWriteBody, ViewedBody,
} from '../schemas/insight.js';
import { ActivityPage } from '../schemas/project.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });
const FormatQuery = Type.Object({ format: Type.Optional(Type.String()) });

const projectOf = (request: FastifyRequest) => (request.params as { project_id: string }).project_id;
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;
const queryOf = (request: FastifyRequest) => (request.query ?? {}) as Record<string, unknown>;

function fromDashboardOf(request: FastifyRequest): number | null {
  const raw = queryOf(request).from_dashboard;
  if (raw === undefined || raw === '') return null;
  if (typeof raw !== 'string' || !/^[1-9]\d{0,9}$/.test(raw) || Number(raw) > 2 ** 31 - 1) {
    throw new ValidationError('A valid integer is required.', 'from_dashboard', 'invalid');
  }
  return Number(raw);
}

function mountInsightRoutes(app: FastifyInstance, services: Services, prefix: string, tag: string) {
  const { insights, sharing } = services;
  const siteUrl = services.config.siteUrl;
  const collection = `${prefix}/:project_id/insights/`;
  const item = `${prefix}/:project_id/insights/:id/`;
  const tags = [tag];

  /** A member through their key or session, or whoever holds the sharing token the request came with. */
  const readerOf = (request: FastifyRequest): Promise<InsightReader> => {
    const token = sharingTokenOf(request);
    return token !== null ? sharing.readerForToken(token, projectOf(request)) : insights.reader(principalOf(request), projectOf(request));
  };
  const refreshOf = (request: FastifyRequest) => {
    const mode = parseRefreshMode(queryOf(request).refresh, 'force_cache');
    return sharingTokenOf(request) !== null ? sharedRefreshMode(mode) : mode;
  };

  const list = async (request: FastifyRequest, csv: boolean) => {
    const format = requestedFormat(request, csv);
    const reader = await readerOf(request);
    const page = parseLimitOffset(request.query);
    const params = parseInsightListParams(queryOf(request), reader.userId);
    const basic = String(queryOf(request).basic ?? '').toLowerCase() === 'true';
    const { count, results } = await insights.list(reader, { ...params, basic, refresh: refreshOf(request) }, page);
    return { format, body: limitOffsetEnvelope(request, siteUrl, page, count, results) };
  };

  app.get(collection, {
    config: { scope: 'insight:read', sharingToken: true },
    schema: { tags, params: CollectionParams, querystring: InsightListQuery, response: { 200: Paginated(AnyObject), ...errorResponses } },
    handler: async (request, reply) => {
      const { format, body } = await list(request, false);
      return sendFormatted(reply, format, body);
    },
  });

  app.get(`${prefix}/:project_id/insights.csv`, {
    config: { scope: 'insight:read', sharingToken: true },
    schema: { tags, params: CollectionParams, querystring: InsightListQuery },
    handler: async (request, reply) => {
      const { format, body } = await list(request, true);
      return sendFormatted(reply, format, body);
    },
  });

  app.post(collection, {
    config: { scope: 'insight:write' },
    schema: { tags, params: CollectionParams, querystring: FormatQuery, body: InsightWriteBody, response: { 201: Insight, ...errorResponses } },
    handler: async (request, reply) => {
      const format = requestedFormat(request);
      const created = await insights.create(principalOf(request), projectOf(request), request.body as InsightInput);
      return sendFormatted(reply, format, created, 201);
    },
  });

  app.get(item, {
    config: { scope: 'insight:read', sharingToken: true },
    schema: { tags, params: ItemParams, querystring: InsightRetrieveQuery, response: { 200: Insight, ...errorResponses } },
    handler: async (request, reply) => {
      const { id, csv } = splitCsvSuffix(idOf(request));
      const format = requestedFormat(request, csv);
      const reader = await readerOf(request);
      const clientQueryId = queryOf(request).client_query_id as string | undefined;
      const insight = await insights.get(reader, id, { refresh: refreshOf(request), fromDashboard: fromDashboardOf(request), clientQueryId });
      return sendFormatted(reply, format, insight);
    },
  });

  // Hoglet's addition: the insight's result as a spreadsheet, one row per series (or funnel step).
  app.get(`${item}results.csv`, {
    config: { scope: 'insight:read', sharingToken: true },
    schema: { tags, params: ItemParams, querystring: InsightRetrieveQuery },
    handler: async (request, reply) => {
      const reader = await readerOf(request);
      const insight = await insights.get(reader, idOf(request), { refresh: refreshOf(request), fromDashboard: fromDashboardOf(request) });
      return sendCsv(reply, seriesCsv(insight.result, insightQueryOf(insight.query, insight.filters), { title: insight.name || insight.derived_name || insight.short_id }));
    },
  });

  for (const method of ['PATCH', 'PUT'] as const) {
    app.route({
      method,
      url: item,
      config: { scope: 'insight:write' },
      schema: { tags, params: ItemParams, querystring: FormatQuery, body: InsightWriteBody, response: { 200: Insight, ...errorResponses } },
      handler: async (request, reply) => {
        const format = requestedFormat(request);
        const updated = await insights.update(principalOf(request), projectOf(request), idOf(request), (request.body ?? {}) as InsightInput);
        return sendFormatted(reply, format, updated);
      },
    });
  }

  // PostHog never hard-deletes an insight: 405 with no body; PATCH {"deleted": true} instead.
  app.delete(item, {
    config: { scope: 'insight:write' },
    schema: { tags, params: ItemParams, response: { 405: Type.Null(), ...errorResponses } },
    handler: (request) => insights.refuseDelete(principalOf(request), projectOf(request), idOf(request)),
  });

  app.get(`${item}activity/`, {
    config: { scope: 'activity_log:read' },
    schema: { tags, params: ItemParams, querystring: PageQuery, response: { 200: ActivityPage, ...errorResponses } },
    handler: async (request) => {
      const page = parsePageNumber(request.query, 10);
      const { total_count, results } = await insights.activity(principalOf(request), projectOf(request), idOf(request), page);
      return pageNumberEnvelope(request, siteUrl, page, total_count, results);
    },
  });

  app.get(`${collection}activity/`, {
    config: { scope: 'activity_log:read' },
    schema: { tags, params: CollectionParams, querystring: PageQuery, response: { 200: ActivityPage, ...errorResponses } },
    handler: async (request) => {
      const page = parsePageNumber(request.query, 10);
      const { total_count, results } = await insights.activity(principalOf(request), projectOf(request), null, page);
      return pageNumberEnvelope(request, siteUrl, page, total_count, results);
    },
  });

  // The spec's form answers 200; PostHog's bulk form 201. Both with no body.
  app.post(`${item}viewed/`, {
    config: { scope: 'insight:read' },
    schema: { tags, params: ItemParams, response: { 200: Type.Null(), ...errorResponses } },
    handler: async (request, reply) => {
      await insights.viewedOne(principalOf(request), projectOf(request), idOf(request));
      return reply.code(200).send();
    },
  });

  app.post(`${collection}viewed/`, {
    config: { scope: 'insight:read' },
    schema: { tags, params: CollectionParams, body: ViewedBody, response: { 201: Type.Null(), ...errorResponses } },
    handler: async (request, reply) => {
      await insights.viewed(principalOf(request), projectOf(request), (request.body as { insight_ids: number[] }).insight_ids);
      return reply.code(201).send();
    },
  });

  app.get(`${collection}my_last_viewed/`, {
    config: { scope: 'insight:read' },
    schema: { tags, params: CollectionParams, querystring: FormatQuery, response: { 200: Type.Array(AnyObject), ...errorResponses } },
    handler: async (request, reply) => {
      const format = requestedFormat(request);
      return sendFormatted(reply, format, await insights.myLastViewed(principalOf(request), projectOf(request)));
    },
  });

  // Client timing telemetry: accepted and dropped, as a self-hosted server has nowhere to send it.
  app.post(`${collection}timing/`, {
    config: { scope: 'insight:read' },
    schema: { tags, params: CollectionParams, response: { 201: AnyObject, ...errorResponses } },
    handler: async (request, reply) => {
      await insights.reader(principalOf(request), projectOf(request));
      return reply.code(201).send({});
    },
  });

  app.get(`${item}sharing/`, {
    config: { scope: 'sharing_configuration:read' },
    schema: { tags, params: ItemParams, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => sharing.get(principalOf(request), projectOf(request), idOf(request)),
  });

  app.patch(`${item}sharing/`, {
    config: { scope: 'sharing_configuration:write' },
    schema: { tags, params: ItemParams, body: SharingWriteBody, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => sharing.update(principalOf(request), projectOf(request), idOf(request), (request.body ?? {}) as { enabled?: boolean }),
  });

  app.post(`${item}sharing/refresh/`, {
    config: { scope: 'sharing_configuration:write' },
    schema: { tags, params: ItemParams, response: { 200: SharingConfiguration, ...errorResponses } },
    handler: (request) => sharing.refresh(principalOf(request), projectOf(request), idOf(request)),
  });
}

export function insightRoutes(app: FastifyInstance, services: Services): void {
  mountInsightRoutes(app, services, '/api/projects', 'insights');
  mountInsightRoutes(app, services, '/api/environments', 'insights (environment paths)');

  // A shared insight: `/shared/<token>` is the app's page drawing it, `/shared/<token>.json` the
  // JSON it draws from (and embeds use); no key, the token is the whole credential.
  app.get('/shared/:token', {
    schema: { tags: ['sharing'], params: Type.Object({ token: Type.String() }), response: { 200: AnyObject, ...errorResponses } },
    handler: async (request, reply) => {
      const path = (request.params as { token: string }).token;
      if (!path.endsWith('.json')) return sendAppPage(reply);
      const reader = await services.sharing.readerForToken(path.slice(0, -'.json'.length), null);
      const insight = await services.insights.get(reader, String(reader.sharedInsightId), { refresh: sharedRefreshMode('force_cache'), fromDashboard: null });
      return { type: 'scene', insight };
    },
  });
}
