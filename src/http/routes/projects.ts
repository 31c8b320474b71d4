// The Projects API, mounted twice: under /api/organizations/:organization_id/projects/ (the
// spec's paths) and under /api/projects/ (the paths PostHog's clients use, organization implied).
// The secret key's two actions are also under /api/environments/ (PostHog's team viewset has them).
import { Type, type TObject } from 'typebox';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { limitOffsetEnvelope, pageNumberEnvelope, parseLimitOffset, parsePageNumber } from '../pagination.js';
import { LimitOffsetQuery, NoBody, PageQuery, Paginated, errorResponses } from '../schemas/common.js';
import { ActivityPage, IsGeneratingDemoData, ProjectFull, ProjectReduced, ProjectWriteBody } from '../schemas/project.js';

interface Mount {
  prefix: string;
  tag: string;
  params: TObject;
}

const OrgParams = Type.Object({ organization_id: Type.String() });
const OrgItemParams = Type.Object({ organization_id: Type.String(), id: Type.String() });
const ItemParams = Type.Object({ id: Type.String() });

/** The organization named by the path; undefined where the path names none. */
const orgOf = (params: object): string | undefined =>
  'organization_id' in params && typeof params.organization_id === 'string' ? params.organization_id : undefined;

function mountProjectRoutes(app: HogletApp, services: Services, mount: Mount, itemParams: typeof ItemParams | typeof OrgItemParams) {
  const { projects } = services;
  const siteUrl = services.config.siteUrl;
  const collection = `${mount.prefix}/`;
  const item = `${mount.prefix}/:id/`;
  const tags = [mount.tag];
  const listOrg = (params: object) => orgOf(params) ?? '@current';

  app.get(collection, {
    config: { scope: 'project:read' },
    schema: { tags, params: mount.params, querystring: LimitOffsetQuery, response: { 200: Paginated(ProjectReduced), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const { count, results } = await projects.list(principalOf(request), listOrg(request.params), page);
      return limitOffsetEnvelope(request, siteUrl, page, count, results);
    },
  });

  app.post(collection, {
    config: { scope: 'project:write' },
    schema: { tags, params: mount.params, body: ProjectWriteBody, response: { 201: ProjectFull, ...errorResponses } },
    handler: async (request, reply) => {
      const created = await projects.create(principalOf(request), listOrg(request.params), request.body);
      return reply.code(201).send(created);
    },
  });

  app.get(item, {
    config: { scope: 'project:read' },
    schema: { tags, params: itemParams, response: { 200: ProjectFull, ...errorResponses } },
    handler: (request) => projects.get(principalOf(request), request.params.id, orgOf(request.params)),
  });

  app.patch(item, {
    config: { scope: 'project:write' },
    schema: { tags, params: itemParams, body: ProjectWriteBody, response: { 200: ProjectFull, ...errorResponses } },
    handler: (request) =>
      projects.update(principalOf(request), request.params.id, orgOf(request.params), request.body),
  });

  app.delete(item, {
    config: { scope: 'project:write' },
    schema: { tags, params: itemParams, response: { 204: NoBody(), ...errorResponses } },
    handler: async (request, reply) => {
      await projects.delete(principalOf(request), request.params.id, orgOf(request.params));
      return reply.code(204).send();
    },
  });

  app.get(`${mount.prefix}/:id/activity/`, {
    config: { scope: 'activity_log:read' },
    schema: { tags, params: itemParams, querystring: PageQuery, response: { 200: ActivityPage, ...errorResponses } },
    handler: async (request) => {
      const page = parsePageNumber(request.query, 10);
      const { total_count, results } = await projects.activity(
        principalOf(request),
        request.params.id,
        orgOf(request.params),
        page,
      );
      return pageNumberEnvelope(request, siteUrl, page, total_count, results);
    },
  });

  app.get(`${mount.prefix}/:id/is_generating_demo_data/`, {
    config: { scope: 'project:read' },
    schema: { tags, params: itemParams, response: { 200: IsGeneratingDemoData, ...errorResponses } },
    handler: (request) => projects.isGeneratingDemoData(principalOf(request), request.params.id, orgOf(request.params)),
  });

  app.patch(`${mount.prefix}/:id/reset_token/`, {
    config: { scope: 'project:write' },
    // The body is accepted (as the spec says) but only the token changes.
    schema: { tags, params: itemParams, response: { 200: ProjectFull, ...errorResponses } },
    handler: (request) => projects.resetToken(principalOf(request), request.params.id, orgOf(request.params)),
  });
  mountSecretKeyRoutes(app, services, mount.prefix, tags, itemParams);
}

/** Rotating the secret key (`phs_`) and deleting its backup: both answer the full project. */
function mountSecretKeyRoutes(app: HogletApp, services: Services, prefix: string, tags: string[], itemParams: typeof ItemParams | typeof OrgItemParams) {
  const { projects } = services;
  app.patch(`${prefix}/:id/rotate_secret_token/`, {
    config: { scope: 'project:write' },
    schema: { tags, summary: 'A new secret key; the old one becomes the backup', params: itemParams, response: { 200: ProjectFull, ...errorResponses } },
    handler: (request) => projects.rotateSecretToken(principalOf(request), request.params.id, orgOf(request.params)),
  });
  app.patch(`${prefix}/:id/delete_secret_token_backup/`, {
    config: { scope: 'project:write' },
    schema: { tags, summary: 'The backup secret key stops working', params: itemParams, response: { 200: ProjectFull, ...errorResponses } },
    handler: (request) => projects.deleteSecretTokenBackup(principalOf(request), request.params.id, orgOf(request.params)),
  });
}

export function projectRoutes(app: HogletApp, services: Services): void {
  mountProjectRoutes(
    app,
    services,
    { prefix: '/api/organizations/:organization_id/projects', tag: 'projects', params: OrgParams },
    OrgItemParams,
  );
  mountProjectRoutes(
    app,
    services,
    { prefix: '/api/projects', tag: 'projects (current organization)', params: Type.Object({}) },
    ItemParams,
  );
  mountSecretKeyRoutes(app, services, '/api/environments', ['projects (environment paths)'], ItemParams);
}
