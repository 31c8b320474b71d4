// The signed-in user's account: PATCH /api/users/@me/ (PostHog's UserSerializer update: names,
// password with current_password, set_current_organization / set_current_team) and signing out
// of every browser. PostHog has no public route for the latter; Hoglet's is
// POST /api/users/@me/sign_out_everywhere/ (every session of the user ends, this one too).
import { Type } from 'typebox';
import { peopleServices } from '../../core/people/index.js';
import type { Services } from '../../services.js';
import { clearSessionCookies, principalOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { errorResponses } from '../schemas/common.js';
import { Me } from '../schemas/identity.js';
import { MeBody } from '../schemas/people.js';

export function accountRoutes(app: HogletApp, services: Services): void {
  const { account } = peopleServices(services);

  for (const method of ['patch', 'put'] as const) {
    app[method]('/api/users/@me/', {
      config: { scope: 'user:write' },
      schema: { tags: ['identity'], summary: 'Change your name, password (with current_password) or current project', body: MeBody, response: { 200: Me, ...errorResponses } },
      handler: async (request) => {
        const principal = principalOf(request);
        await account.update(principal, request.body);
        return services.identity.me(principal);
      },
    });
  }

  app.post('/api/users/@me/sign_out_everywhere/', {
    config: { scope: 'user:write' },
    schema: { tags: ['identity'], summary: 'End every web app session of the user, this one included', response: { 200: Type.Object({ success: Type.Boolean() }), ...errorResponses } },
    handler: async (request, reply) => {
      await account.signOutEverywhere(principalOf(request));
      clearSessionCookies(request, reply, services.config.siteUrl);
      return { success: true };
    },
  });
}
