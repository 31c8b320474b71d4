// An organization's members (PostHog's OrganizationMemberViewSet): list, change a level, remove.
// `@current` names the user's current organization; `@me` the caller's own membership.
import { Type } from 'typebox';
import { peopleServices } from '../../core/people/index.js';
import type { Services } from '../../services.js';
import { principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { limitOffsetEnvelope, parseLimitOffset } from '../pagination.js';
import { NoBody, Paginated, errorResponses } from '../schemas/common.js';
import { Member } from '../schemas/people.js';

const OrgParams = Type.Object({ organization_id: Type.String() });
const MemberParams = Type.Object({ organization_id: Type.String(), user_uuid: Type.String() });
const ListQuery = Type.Object({
  limit: Type.Optional(Type.String()),
  offset: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  order: Type.Optional(Type.String({ description: "'-joined_at' (default) or 'joined_at'" })),
});
const LevelBody = Type.Object({ level: Type.Optional(Type.Unknown()) }, { additionalProperties: true });

export function memberRoutes(app: HogletApp, services: Services): void {
  const { members } = peopleServices(services);
  const tags = ['members'];
  const item = '/api/organizations/:organization_id/members/:user_uuid/';

  app.get('/api/organizations/:organization_id/members/', {
    config: { scope: 'organization_member:read' },
    schema: { tags, params: OrgParams, querystring: ListQuery, response: { 200: Paginated(Member), ...errorResponses } },
    handler: async (request) => {
      const page = parseLimitOffset(request.query);
      const all = await members.list(principalOf(request), request.params.organization_id, request.query);
      return limitOffsetEnvelope(request, services.config.siteUrl, page, all.length, all.slice(page.offset, page.offset + page.limit));
    },
  });

  for (const method of ['patch', 'put'] as const) {
    app[method](item, {
      config: { scope: 'organization_member:write' },
      schema: { tags, summary: "Change a member's level (admins and owners; only an owner makes an owner)", params: MemberParams, body: LevelBody, response: { 200: Member, ...errorResponses } },
      handler: (request) => members.update(principalOf(request), request.params.organization_id, request.params.user_uuid, request.body),
    });
  }

  app.get(`${item}scoped_api_keys/`, {
    config: { scope: 'organization_member:read' },
    schema: {
      tags,
      summary: "The member's personal API keys that reach this organization",
      params: MemberParams,
      response: {
        200: Type.Object({
          has_keys: Type.Boolean(),
          has_keys_active_last_week: Type.Boolean(),
          keys: Type.Array(Type.Object({ name: Type.String(), last_used_at: Type.Union([Type.String(), Type.Null()]) })),
        }),
        ...errorResponses,
      },
    },
    handler: (request) => members.scopedApiKeys(principalOf(request), request.params.organization_id, request.params.user_uuid),
  });

  app.delete(item, {
    config: { scope: 'organization_member:write' },
    schema: { tags, summary: 'Remove a member (admins), or leave (anyone); never the last owner', params: MemberParams, response: { 204: NoBody(), ...errorResponses } },
    handler: async (request, reply) => {
      await members.remove(principalOf(request), request.params.organization_id, request.params.user_uuid);
      return reply.code(204).send();
    },
  });
}
