// PostHog's groups resources: /groups_types/ and /groups/ (list with cursor pages and ?search=,
// /find/, /related/, /property_definitions/), under /api/projects/ and /api/environments/.
import { Type } from 'typebox';
import { AccessResolver } from '../../core/access.js';
import { GroupsService, readGroupTypeIndex } from '../../core/groups/service.js';
import { ValidationError } from '../../errors.js';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { linkTo } from '../pagination.js';
import { AnyObject, errorResponses } from '../schemas/common.js';

const Params = Type.Object({ project_id: Type.String() });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const GroupType = Type.Object({
  group_type: Type.String(), group_type_index: Type.Integer(), name_singular: Nullable(Type.String()), name_plural: Nullable(Type.String()),
  detail_dashboard: Nullable(Type.Integer()), default_columns: Nullable(Type.Array(Type.String())), created_at: Type.String(),
});
const Group = Type.Object({ group_type_index: Type.Integer(), group_key: Type.String(), group_properties: AnyObject, created_at: Type.String() });
const GroupPage = Type.Object({ next: Nullable(Type.String()), previous: Nullable(Type.String()), results: Type.Array(Group) });
const ListQuery = Type.Object({
  group_type_index: Type.Optional(Type.String()), search: Type.Optional(Type.String({ maxLength: 1000 })),
  group_key: Type.Optional(Type.String({ maxLength: 1000 })), cursor: Type.Optional(Type.String({ maxLength: 100 })),
});
const FindQuery = Type.Object({ group_type_index: Type.Optional(Type.String()), group_key: Type.Optional(Type.String({ maxLength: 1000 })) });
const RelatedQuery = Type.Object({ group_type_index: Type.Optional(Type.String()), id: Type.Optional(Type.String({ maxLength: 1000 })) });

/** PostHog's cursors are opaque; Hoglet's carries the offset of the page (base64 of "o=<n>"). */
const cursorOf = (offset: number) => Buffer.from(`o=${offset}`).toString('base64url');
function offsetOf(cursor: string | undefined): number {
  if (!cursor) return 0;
  const match = /^o=(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new ValidationError('Invalid cursor', 'cursor');
  return Number(match[1]);
}

function required(value: string | undefined, name: string): string {
  if (value === undefined) throw new ValidationError(`${name} is required.`, name, 'required');
  return value;
}

function mountGroupRoutes(app: HogletApp, groups: GroupsService, siteUrl: string | null, prefix: string, tag: string) {
  const tags = [tag];
  app.get(`${prefix}/:project_id/groups_types/`, {
    config: { scope: 'group:read' },
    schema: { tags, summary: 'Group types, by index', params: Params, response: { 200: Type.Array(GroupType), ...errorResponses } },
    handler: (request) => groups.types(principalOf(request), request.params.project_id),
  });

  app.patch(`${prefix}/:project_id/groups_types/update_metadata/`, {
    config: { scope: 'group:write' },
    schema: { tags, summary: 'Display names of group types: a list of {group_type_index, name_singular, name_plural}', params: Params, body: Type.Array(Type.Object({ group_type_index: Type.Integer(), name_singular: Type.Optional(Nullable(Type.String({ maxLength: 400 }))), name_plural: Type.Optional(Nullable(Type.String({ maxLength: 400 }))) }), { maxItems: 5 }), response: { 200: Type.Array(GroupType), ...errorResponses } },
    handler: (request) => groups.updateMetadata(principalOf(request), request.params.project_id, request.body),
  });

  app.get(`${prefix}/:project_id/groups/`, {
    config: { scope: 'group:read' },
    schema: { tags, summary: 'Groups of one type (?group_type_index=), newest first, 100 a page (?cursor=), ?search= over key and properties', params: Params, querystring: ListQuery, response: { 200: GroupPage, ...errorResponses } },
    handler: async (request) => {
      const index = readGroupTypeIndex(request.query.group_type_index);
      const offset = offsetOf(request.query.cursor);
      const page = await groups.list(principalOf(request), request.params.project_id, index, { search: request.query.search, groupKey: request.query.group_key, offset });
      const next = page.hasMore ? linkTo(request, siteUrl, { cursor: cursorOf(offset + page.results.length) }) : null;
      const previous = offset > 0 ? linkTo(request, siteUrl, { cursor: offset - 100 > 0 ? cursorOf(offset - 100) : null }) : null;
      return { next, previous, results: page.results };
    },
  });

  app.get(`${prefix}/:project_id/groups/find/`, {
    config: { scope: 'group:read' },
    schema: { tags, summary: 'One group by ?group_type_index= and ?group_key=', params: Params, querystring: FindQuery, response: { 200: Group, ...errorResponses } },
    handler: (request) => groups.find(principalOf(request), request.params.project_id, readGroupTypeIndex(request.query.group_type_index), required(request.query.group_key, 'group_key')),
  });

  app.get(`${prefix}/:project_id/groups/related/`, {
    config: { scope: 'group:read' },
    schema: { tags, summary: "A group's related persons and groups (shared events in the last 90 days)", params: Params, querystring: RelatedQuery, response: { 200: Type.Array(AnyObject), ...errorResponses } },
    handler: (request) => groups.related(principalOf(request), request.params.project_id, readGroupTypeIndex(request.query.group_type_index), required(request.query.id, 'id')),
  });

  app.get(`${prefix}/:project_id/groups/property_definitions/`, {
    config: { scope: 'group:read' },
    schema: { tags, summary: "Each group type's property keys with how many groups have them", params: Params, response: { 200: Type.Record(Type.String(), Type.Array(Type.Object({ name: Type.String(), count: Type.Integer() }))), ...errorResponses } },
    handler: (request) => groups.propertyDefinitions(principalOf(request), request.params.project_id),
  });
}

export function groupRoutes(app: HogletApp, services: Services): void {
  const { organizations, projects, users } = services.repositories;
  const groups = new GroupsService(new AccessResolver(organizations, projects, users), services.queries, services.groupTypesOf, services.repositories);
  mountGroupRoutes(app, groups, services.config.siteUrl, '/api/projects', 'groups');
  mountGroupRoutes(app, groups, services.config.siteUrl, '/api/environments', 'groups (environment paths)');
}
