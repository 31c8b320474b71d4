// A resource's activity log endpoints, as PostHog serves them for insights and cohorts:
// `…/:id/activity/` (one item's entries) and `…/activity/` (the resource's), newest first, in
// page-number pages of 10.
import { Type } from 'typebox';
import type { ActivityView } from '../../core/activity.js';
import type { Principal } from '../../core/auth/principal.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { pageNumberEnvelope, parsePageNumber } from '../pagination.js';
import { PageQuery, errorResponses } from '../schemas/common.js';
import { ActivityPage } from '../schemas/project.js';

const CollectionParams = Type.Object({ project_id: Type.String() });
const ItemParams = Type.Object({ project_id: Type.String(), id: Type.String() });

type ActivityReader = (principal: Principal, projectParam: string, idParam: string | null, page: { limit: number; page: number }) =>
  Promise<{ total_count: number; results: ActivityView[] }>;

export function mountActivityRoutes(app: HogletApp, siteUrl: string | null, paths: { collection: string; item: string; tags: string[] }, read: ActivityReader): void {
  const { collection, item, tags } = paths;
  app.get(`${item}activity/`, {
    config: { scope: 'activity_log:read' },
    schema: { tags, params: ItemParams, querystring: PageQuery, response: { 200: ActivityPage, ...errorResponses } },
    handler: async (request) => {
      const page = parsePageNumber(request.query, 10);
      const { total_count, results } = await read(principalOf(request), request.params.project_id, request.params.id, page);
      return pageNumberEnvelope(request, siteUrl, page, total_count, results);
    },
  });

  app.get(`${collection}activity/`, {
    config: { scope: 'activity_log:read' },
    schema: { tags, params: CollectionParams, querystring: PageQuery, response: { 200: ActivityPage, ...errorResponses } },
    handler: async (request) => {
      const page = parsePageNumber(request.query, 10);
      const { total_count, results } = await read(principalOf(request), request.params.project_id, null, page);
      return pageNumberEnvelope(request, siteUrl, page, total_count, results);
    },
  });
}
