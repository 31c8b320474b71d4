// The feature flags API, mounted under /api/projects/:project_id/feature_flags/ and, as PostHog
// also serves it, /api/environments/:project_id/feature_flags/.
import { Type } from 'typebox';
import type { FlagListFilter } from '../../core/flags/service.js';
import { ValidationError } from '../../errors.js';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { limitOffsetEnvelope, parseLimitOffset } from '../pagination.js';
import { Paginated, errorResponses } from '../schemas/common.js';
import { FeatureFlag, FeatureFlagListQuery, FeatureFlagWriteBody } from '../schemas/feature-flag.js';
import { mountActivityRoutes } from './activity-routes.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });
const ORDER_COLUMNS = new Set(['created_at', 'key', 'name', 'updated_at', 'id']);

type ListQuery = { search?: string; active?: string; type?: string; created_by_id?: string; evaluation_runtime?: string; tags?: string; order?: string };

/** The list's filters as PostHog's _apply_filters reads them; a value it cannot mean is a 400. */
function listFilter(query: ListQuery): Omit<FlagListFilter, 'limit' | 'offset'> {
  const active = query.active === undefined || query.active === '' ? null : query.active;
  if (active === 'STALE') throw new ValidationError('active=STALE is not supported: Hoglet does not record when a flag was last evaluated.', 'active');
  if (active !== null && active !== 'true' && active !== 'false') throw new ValidationError('active must be true or false.', 'active');
  const type = query.type === undefined || query.type === '' ? null : query.type;
  if (type !== null && !['boolean', 'multivariant', 'experiment', 'remote_config'].includes(type)) {
    throw new ValidationError('type must be boolean, multivariant, experiment or remote_config.', 'type');
  }
  // Compared as stored, as PostHog does (older rows hold values the serializer no longer takes).
  const runtime = query.evaluation_runtime || null;
  let tags: string[] | null = null;
  if (query.tags) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(query.tags);
    } catch {
      parsed = null;
    }
    if (!Array.isArray(parsed) || !parsed.every((tag) => typeof tag === 'string')) throw new ValidationError('tags must be a JSON list of tag names.', 'tags');
    tags = parsed as string[];
  }
  const order = (query.order || '-created_at').split(',').map((part) => {
    const desc = part.startsWith('-');
    const column = desc ? part.slice(1) : part;
    if (!ORDER_COLUMNS.has(column)) throw new ValidationError('order takes key, name, created_at or updated_at, each with - for descending.', 'order');
    return { column: column as FlagListFilter['order'][number]['column'], desc };
  });
  return {
    search: query.search?.trim() || null,
    active: active === null ? null : active === 'true',
    type: type as FlagListFilter['type'],
    createdById: /^\d{1,10}$/.test(query.created_by_id ?? '') ? Number(query.created_by_id) : null,
    evaluationRuntime: runtime,
    tags,
    order,
  };
}

function mountFlagRoutes(app: HogletApp, services: Services, prefix: string, tag: string) {
  const { featureFlags } = services;
  const siteUrl = services.config.siteUrl;
  const collection = `${prefix}/:project_id/feature_flags/`;
  const item = `${prefix}/:project_id/feature_flags/:id/`;
  const tags = [tag];

  app.get(collection, {
    config: { scope: 'feature_flag:read' },
    schema: { tags, params: CollectionParams, querystring: FeatureFlagListQuery, response: { 200: Paginated(FeatureFlag), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const { count, results } = await featureFlags.list(principalOf(request), request.params.project_id, { ...page, ...listFilter(request.query) });
      return limitOffsetEnvelope(request, siteUrl, page, count, results);
    },
  });

  app.post(collection, {
    config: { scope: 'feature_flag:write' },
    schema: { tags, params: CollectionParams, body: FeatureFlagWriteBody, response: { 201: FeatureFlag, ...errorResponses } },
    handler: async (request, reply) => reply.code(201).send(await featureFlags.create(principalOf(request), request.params.project_id, request.body ?? {})),
  });

  app.get(item, {
    config: { scope: 'feature_flag:read' },
    schema: { tags, params: ItemParams, response: { 200: FeatureFlag, ...errorResponses } },
    handler: (request) => featureFlags.get(principalOf(request), request.params.project_id, request.params.id),
  });

  app.patch(item, {
    config: { scope: 'feature_flag:write' },
    schema: { tags, params: ItemParams, body: FeatureFlagWriteBody, response: { 200: FeatureFlag, ...errorResponses } },
    handler: (request) => featureFlags.update(principalOf(request), request.params.project_id, request.params.id, request.body ?? {}),
  });

  app.put(item, {
    config: { scope: 'feature_flag:write' },
    schema: { tags, params: ItemParams, body: FeatureFlagWriteBody, response: { 200: FeatureFlag, ...errorResponses } },
    handler: (request) => featureFlags.update(principalOf(request), request.params.project_id, request.params.id, request.body ?? {}, { replace: true }),
  });

  // PostHog keeps flags: DELETE is 405 with no body; PATCH {"deleted": true} instead.
  app.delete(item, {
    config: { scope: 'feature_flag:write' },
    schema: { tags, params: ItemParams, response: errorResponses },
    handler: (request) => featureFlags.refuseDelete(principalOf(request), request.params.project_id),
  });

  mountActivityRoutes(app, siteUrl, { collection, item, tags }, (principal, project, id, page) => featureFlags.activity(principal, project, id, page));
}

export function featureFlagRoutes(app: HogletApp, services: Services): void {
  mountFlagRoutes(app, services, '/api/projects', 'feature flags');
  mountFlagRoutes(app, services, '/api/environments', 'feature flags (environment paths)');
}
