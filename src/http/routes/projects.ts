// The Projects API, mounted twice: under /api/organizations/:organization_id/projects/ (the
// spec's paths) and under /api/projects/ (the paths PostHog's clients use, organization implied).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import { limitOffsetEnvelope, pageNumberEnvelope, parseLimitOffset, parsePageNumber } from '../pagination.js';
import { LimitOffsetQuery, PageQuery, Paginated, errorResponses } from '../schemas/common.js';
import { ActivityPage, IsGeneratingDemoData, ProjectFull, ProjectReduced, ProjectWriteBody } from '../schemas/project.js';

type WriteBody = Static<typeof ProjectWriteBody>;

interface Mount {
  prefix: string;
  tag: string;
  params: ReturnType<typeof Type.Object>;
  /** The organization named by the path; undefined where the path names none. */
  organization(request: FastifyRequest): string | undefined;
}

const OrgParams = Type.Object({ organization_id: Type.String() });
const OrgItemParams = Type.Object({ organization_id: Type.String(), id: Type.String() });
const ItemParams = Type.Object({ id: Type.String() });

const orgOf = (request: FastifyRequest) => (request.params as { organization_id?: string }).organization_id;
const idOf = (request: FastifyRequest) => (request.params as { id: string }).id;

function mountProjectRoutes(app: FastifyInstance, services: Services, mount: Mount, itemParams: typeof ItemParams | typeof OrgItemParams) {
  const { projects } = services;
  const siteUrl = services.config.siteUrl;
  const collection = `${mount.prefix}/`;
  const item = `${mount.prefix}/:id/`;
  const tags = [mount.tag];
  const listOrg = (request: FastifyRequest) => mount.organization(request) ?? '@current';

  app.get(collection, {
    config: { scope: 'project:read' },
    schema: { tags, params: mount.params, querystring: LimitOffsetQuery, response: { 200: Paginated(ProjectReduced), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const { count, results } = await projects.list(principalOf(request), listOrg(request), page);
      return limitOffsetEnvelope(request, siteUrl, page, count, results);
    },
  });

  app.post(collection, {
    config: { scope: 'project:write' },
    schema: { tags, params: mount.params, body: ProjectWriteBody, response: { 201: ProjectFull, ...errorResponses } },
    handler: async (request, reply) => {
      const created = await projects.create(principalOf(request), listOrg(request), request.body as WriteBody);
      return reply.code(201).send(created);
    },
  });

  app.get(item, {
    config: { scope: 'project:read' },
    schema: { tags, params: itemParams, response: { 200: ProjectFull, ...errorResponses } },
    handler: (request) => projects.get(principalOf(request), idOf(request), mount.organization(request)),
  });

  app.patch(item, {
    config: { scope: 'project:write' },
    schema: { tags, params: itemParams, body: ProjectWriteBody, response: { 200: ProjectFull, ...errorResponses } },
    handler: (request) =>
      projects.update(principalOf(request), idOf(request), mount.organization(request), (request.body ?? {}) as WriteBody),
  });

  app.delete(item, {
    config: { scope: 'project:write' },
    schema: { tags, params: itemParams, response: { 204: Type.Null(), ...errorResponses } },
    handler: async (request, reply) => {
      await projects.delete(principalOf(request), idOf(request), mount.organization(request));
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
        idOf(request),
        mount.organization(request),
        page,
      );
      return pageNumberEnvelope(request, siteUrl, page, total_count, results);
    },
  });

  app.get(`${mount.prefix}/:id/is_generating_demo_data/`, {
    config: { scope: 'project:read' },
    schema: { tags, params: itemParams, response: { 200: IsGeneratingDemoData, ...errorResponses } },
    handler: (request) => projects.isGeneratingDemoData(principalOf(request), idOf(request), mount.organization(request)),
  });

  app.patch(`${mount.prefix}/:id/reset_token/`, {
    config: { scope: 'project:write' },
    // The body is accepted (as the spec says) but only the token changes.
    schema: { tags, params: itemParams, response: { 200: ProjectFull, ...errorResponses } },
    handler: (request) => projects.resetToken(principalOf(request), idOf(request), mount.organization(request)),
  });
}

export function projectRoutes(app: FastifyInstance, services: Services): void {
  mountProjectRoutes(
    app,
    services,
    { prefix: '/api/organizations/:organization_id/projects', tag: 'projects', params: OrgParams, organization: orgOf },
    OrgItemParams,
  );
  mountProjectRoutes(
    app,
    services,
    { prefix: '/api/projects', tag: 'projects (current organization)', params: Type.Object({}), organization: () => undefined },
    ItemParams,
  );
}
