// buildApp() builds the HTTP application over ready services; main.ts makes it listen.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyReply, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { ErrorBody as ErrorBodyShape } from '../errors.js';
import type { Services } from '../services.js';
import { installAuth } from './auth.js';
import { installErrorHandling } from './error-handler.js';
import { installServerErrorLog } from './server-error-log.js';
import type { HogletApp } from './hoglet-app.js';
import { RouteIndex } from './route-index.js';
import { actionRoutes } from './routes/actions.js';
import { sessionRecordingRoutes } from './routes/session-recordings.js';
import { annotationRoutes } from './routes/annotations.js';
import { cohortRoutes } from './routes/cohorts.js';
import { featureFlagRoutes } from './routes/feature-flags.js';
import { captureRoutes } from './routes/capture.js';
import { dashboardRoutes } from './routes/dashboards.js';
import { definitionRoutes } from './routes/definitions.js';
import { backupRoutes } from './routes/backup.js';
import { healthRoutes } from './routes/health.js';
import { dataStatusRoutes } from './routes/data-status.js';
import { identityRoutes } from './routes/identity.js';
import { metricsRoutes } from './routes/metrics.js';
import { accountRoutes } from './routes/account.js';
import { inviteRoutes } from './routes/invites.js';
import { memberRoutes } from './routes/members.js';
import { personalApiKeyRoutes } from './routes/personal-api-keys.js';
import { insightRoutes } from './routes/insights.js';
import { personRoutes } from './routes/persons.js';
import { groupRoutes } from './routes/groups.js';
import { projectRoutes } from './routes/projects.js';
import { eventRetentionRoutes } from './routes/event-retention.js';
import { queryRoutes } from './routes/queries.js';
import { sdkConfigRoutes } from './routes/sdk-config.js';
import { sdkStaticRoutes } from './routes/sdk-static.js';
import { sessionRoutes } from './routes/session.js';
import { webAppRoutes } from './routes/web-app.js';
import { ErrorBody } from './schemas/common.js';
import { addRequestExamples } from './openapi-examples.js';
import { API_TITLE, swaggerUiBranding } from './swagger-theme.js';

export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface AppOptions {
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp(services: Services, options: AppOptions = {}): Promise<HogletApp> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: BODY_LIMIT_BYTES,
    // Long path segments reach the routes, which answer PostHog's 400 (a token is validated there).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 1000 },
    genReqId: () => randomUUID(),
    return503OnClosing: true,
    // Behind a reverse proxy, request.ip is the client's (from X-Forwarded-For), not the proxy's.
    trustProxy: services.config.trustProxy,
    // Router-level refusals (a malformed %-escape, an over-long path segment) in PostHog's body too.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode ?? 400;
      const body: ErrorBodyShape = { type: 'invalid_request', code: error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'path_too_long' : 'bad_url', detail: error.message, attr: null };
      void (reply as FastifyReply).code(status).send(body);
    },
    ajv: {
      // No coercion: a JSON `null` must not turn into `false` or `""`, and types are reported
      // the way PostHog reports them. `verbose` gives the failing value for those messages.
      customOptions: { coerceTypes: false, removeAdditional: true, useDefaults: true, allErrors: false, verbose: true },
    },
    // The TypeBox provider only types each route's request and reply from its schema: validation
    // stays Ajv's, whose messages become PostHog's 400s.
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Every answer names its request id, which is also in the log line of any 500.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const routes = new RouteIndex();
  routes.attach(app);
  installErrorHandling(app, routes, BODY_LIMIT_BYTES);
  installServerErrorLog(app);
  await app.register(cookie);
  installAuth(app, services.authenticator, services.sessions, services.projects.secretTokens);

  // JSON only (DRF would also take forms; PostHog's clients send JSON). An empty JSON body is
  // no body, since several clients send the header on DELETE and GET.
  app.removeContentTypeParser(['text/plain']);
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });

  // A POST, PATCH or PUT without a body means "no fields", as DRF reads it (an explicit null does not).
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && (request.method === 'POST' || request.method === 'PATCH' || request.method === 'PUT')) request.body = {};
  });

  app.addSchema(ErrorBody);
  await app.register(swagger, {
    openapi: {
      info: {
        title: API_TITLE,
        description: "PostHog-compatible projects and insights API. Authenticate with `Authorization: Bearer <personal API key>`.",
        version: '0.1.0',
      },
      components: { securitySchemes: { PersonalAPIKey: { type: 'http', scheme: 'bearer' } } },
      security: [{ PersonalAPIKey: [] }],
    },
    // Real request bodies (a trend, a funnel, the refresh modes, a saved insight) in the document.
    transformObject: (document) => ('openapiObject' in document ? addRequestExamples(document.openapiObject) : document.swaggerObject),
  });
  await app.register(swaggerUi, { routePrefix: '/api/schema/swagger-ui', ...swaggerUiBranding });
  app.get('/api/schema/', { schema: { hide: true } }, () => app.swagger());

  healthRoutes(app, services);
  backupRoutes(app, services);
  metricsRoutes(app, services);
  dataStatusRoutes(app, services);
  sessionRoutes(app, services);
  identityRoutes(app, services);
  accountRoutes(app, services);
  memberRoutes(app, services);
  inviteRoutes(app, services);
  personalApiKeyRoutes(app, services);
  projectRoutes(app, services);
  eventRetentionRoutes(app, services);
  actionRoutes(app, services);
  annotationRoutes(app, services);
  await cohortRoutes(app, services);
  featureFlagRoutes(app, services);
  definitionRoutes(app, services);
  personRoutes(app, services);
  sessionRecordingRoutes(app, services);
  groupRoutes(app, services);
  queryRoutes(app, services);
  insightRoutes(app, services);
  dashboardRoutes(app, services);
  await captureRoutes(app, services);
  await sdkConfigRoutes(app, services);
  await sdkStaticRoutes(app);
  await webAppRoutes(app);
  return app;
}
