// Signing in to and out of the web app, as PostHog's app does: POST /api/login/ with an email and
// password answers {"success": true} and sets the session cookies; POST /api/logout/ ends the
// session. API clients never need these: they send a personal API key.
import { Type } from 'typebox';
import { MAX_PASSWORD_LENGTH } from '../../core/auth/passwords.js';
import type { Services } from '../../services.js';
import { clearSessionCookies, principalOf, setSessionCookies } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { errorResponses } from '../schemas/common.js';

const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
});
const Success = Type.Object({ success: Type.Boolean() });

export function sessionRoutes(app: HogletApp, services: Services): void {
  const siteUrl = services.config.siteUrl;

  app.post('/api/login/', {
    schema: { tags: ['web app'], summary: 'Sign in with an email and password (sets the session cookies)', body: LoginBody, response: { 200: Success, ...errorResponses } },
    handler: async (request, reply) => {
      const { email, password } = request.body;
      const session = await services.sessions.signIn(email, password, request.ip);
      setSessionCookies(request, reply, session, siteUrl);
      return { success: true };
    },
  });

  app.post('/api/logout/', {
    config: { scope: 'authenticated' },
    schema: { tags: ['web app'], summary: 'Sign out of the browser session', response: { 200: Success, ...errorResponses } },
    handler: async (request, reply) => {
      const principal = principalOf(request);
      if (principal.kind === 'session') await services.sessions.signOut(principal);
      clearSessionCookies(request, reply, siteUrl);
      return { success: true };
    },
  });
}
