// What PostHog's SDKs ask for: the remote config (`/array/<token>/config[.js]`), flags (`/flags/`,
// and `/decide/` for older SDKs), posthog-node's flag definitions for local evaluation (ETag and
// 304) and remote-config payloads; those two also take the project's secret key (`phs_`). They share capture's scope: raw bodies in any encoding, and
// CORS headers on every answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { decideResponse, flagsResponse, minimalFlagsResponse, readFlagsQuery } from '../../core/sdk/flags-responses.js';
import { etagMatches, wantsCohorts, type PreparedDefinitions } from '../../core/sdk/local-evaluation.js';
import { remoteConfigScript } from '../../core/sdk/remote-config.js';
import { configForClient } from '../../core/sdk/recording-domains.js';
import { clientAddress, proxyTrust } from '../../core/geoip/client-ip.js';
import { SdkConfigService } from '../../core/sdk/service.js';
import { AuthenticationFailedError, PermissionDeniedError } from '../../errors.js';
import { flagReaderOf } from '../auth.js';
import type { HogletApp } from '../hoglet-app.js';
import { allowPreflight, CAPTURE_BODY_LIMIT_BYTES, sdkScope, toInput } from './capture.js';

const TokenParams = Type.Object({ token: Type.String({ description: "The project's capture token (`phc_...`)" }) });

/** Documentation only: the answers are built in core/sdk and keep every key they have (typed unknown: the config goes out as text already). */
const openObject = (description: string, properties: Record<string, unknown> = {}) =>
  Type.Unsafe<unknown>({ type: 'object', description, properties, additionalProperties: true });

const FlagsAnswer = openObject(
  'v>=2: `{errorsWhileComputingFlags, flags, requestId, evaluatedAt}`; otherwise `featureFlags` and `featureFlagPayloads` instead of `flags`. With `config=true` (or neither `v` nor `config`), the remote config keys follow.',
);

const FlagDefinitionsAnswer = {
  type: 'object',
  properties: {
    flags: { type: 'array', items: { type: 'object', additionalProperties: true } },
    group_type_mapping: { type: 'object', additionalProperties: { type: 'string' } },
    cohorts: { type: 'object', additionalProperties: true },
  },
} as const;

/** PostHog's CDN rules for the config: five minutes, and it may differ by the page asking. */
function cacheHeaders(reply: FastifyReply): void {
  reply.header('cache-control', 'public, max-age=300');
  reply.header('vary', 'Origin, Referer');
}

/** The definitions with a weak ETag; a 304 with no body when If-None-Match names it. */
function sendDefinitions(request: FastifyRequest, reply: FastifyReply, { text, etag }: PreparedDefinitions) {
  reply.header('etag', etag);
  // PostHog's: SDKs and proxies may keep it, but must ask again with If-None-Match.
  reply.header('cache-control', 'private, must-revalidate');
  if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
  return reply.header('content-type', 'application/json').send(text);
}

export async function sdkConfigRoutes(app: HogletApp, services: Services): Promise<void> {
  const sdk = new SdkConfigService(services.projectTokens, services.projects, services.flagSources, services.geoip);
  // The client's address as capture reads it (X-Forwarded-For from trusted proxies only).
  const trusted = proxyTrust(services.config.captureTrustProxy);
  const clientIp = (request: FastifyRequest) => clientAddress(request.raw.socket.remoteAddress, request.headers['x-forwarded-for'], trusted);

  await sdkScope(app, (scope) => {
    scope.get(
      '/array/:token/config',
      {
        schema: {
          tags: ['sdk'],
          summary: "The project's remote config for posthog-js (JSON)",
          security: [],
          params: TokenParams,
          response: { 200: openObject('PostHog `RemoteConfig` keys: `token`, `supportedCompression`, `hasFeatureFlags`, `autocapture_opt_out`, ...') },
        },
      },
      async (request, reply) => {
        const config = configForClient(await sdk.remoteConfig(request.params.token), recordingClient(request));
        cacheHeaders(reply);
        return reply.header('content-type', 'application/json').send(JSON.stringify(config));
      },
    );
    scope.get(
      '/array/:token/config.js',
      {
        schema: {
          tags: ['sdk'],
          summary: "The project's remote config for posthog-js, as a script setting `window._POSTHOG_REMOTE_CONFIG[token]`",
          security: [],
          params: TokenParams,
          response: { 200: Type.String({ description: 'application/javascript' }) },
        },
      },
      async (request, reply) => {
        const { token } = request.params;
        const config = configForClient(await sdk.remoteConfig(token), recordingClient(request));
        cacheHeaders(reply);
        return reply.header('content-type', 'application/javascript').send(remoteConfigScript(token, config));
      },
    );
    allowPreflight(scope, '/array/:token/config');
    allowPreflight(scope, '/array/:token/config.js');

    const flagsSchema = (summary: string) => ({
      tags: ['sdk'],
      summary,
      security: [],
      response: { 200: FlagsAnswer },
    });
    // GET needs no token and answers PostHog's minimal, flag-less response.
    const minimal = async (request: FastifyRequest) => minimalFlagsResponse(readFlagsQuery(request.query as Record<string, unknown>));

    // Sent as text: the schema is open (documentation only), so Fastify's serializer would only add work.
    scope.post('/flags', { schema: flagsSchema("Evaluate the project's active feature flags for a distinct id"), bodyLimit: CAPTURE_BODY_LIMIT_BYTES }, async (request, reply) => {
      const answer = await sdk.answerFlagsRequest(toInput(request), clientIp(request));
      const body = flagsResponse(readFlagsQuery(request.query as Record<string, unknown>), configForClient(answer.config, recordingClient(request)), answer.flags);
      return reply.header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(body));
    });
    scope.get('/flags', { schema: flagsSchema('Minimal flags answer (no token needed)') }, minimal);
    allowPreflight(scope, '/flags');

    scope.post('/decide', { schema: flagsSchema('Legacy flags and config for older SDKs (`v=1..4`)'), bodyLimit: CAPTURE_BODY_LIMIT_BYTES }, async (request) => {
      const answer = await sdk.answerFlagsRequest(toInput(request), clientIp(request));
      return decideResponse(readFlagsQuery(request.query as Record<string, unknown>), configForClient(answer.config, recordingClient(request)), answer.flags);
    });
    scope.get('/decide', { schema: flagsSchema('Minimal decide answer (no token needed)') }, minimal);
    allowPreflight(scope, '/decide');

    // posthog-node's local evaluation polls these with a personal API key or the project's secret
    // key (>= 5.29.4 the first).
    const definitionsSchema = (summary: string, params?: ReturnType<typeof Type.Object>) => ({
      tags: ['sdk'],
      summary,
      ...(params ? { params } : {}),
      querystring: Type.Object({
        token: Type.Optional(Type.String({ description: "The project's capture token; the key's current project without it" })),
        send_cohorts: Type.Optional(Type.String({ description: 'Present: include the trees of the dynamic cohorts the flags name' })),
      }),
      response: { 200: FlagDefinitionsAnswer, 304: Type.Null({ description: 'Unchanged since the ETag sent as If-None-Match' }) },
    });
    // A secret key with `?token=` of another project: PostHog's flags service answers 401, its Django API 403.
    const otherProject = {
      '/flags/definitions': () => new AuthenticationFailedError('Secret API token is invalid.'),
      '/api/feature_flag/local_evaluation': () => new PermissionDeniedError(),
    };
    for (const [path, refusal] of Object.entries(otherProject)) {
      scope.get(
        path,
        { config: { scope: 'feature_flag:read', secretKey: true }, schema: definitionsSchema('Feature flag definitions for local evaluation') },
        async (request, reply) => sendDefinitions(request, reply, await sdk.flagDefinitions(flagReaderOf(request), request.query.token, wantsCohorts(request.query), refusal)),
      );
    }
    for (const prefix of ['/api/projects', '/api/environments']) {
      scope.get(
        `${prefix}/:project_id/feature_flags/local_evaluation`,
        { config: { scope: 'feature_flag:read', secretKey: true }, schema: definitionsSchema("The project's feature flag definitions for local evaluation", Type.Object({ project_id: Type.String() })) },
        async (request, reply) => {
          const { project_id } = request.params as { project_id: string };
          return sendDefinitions(request, reply, await sdk.flagDefinitionsOfProject(flagReaderOf(request), project_id, wantsCohorts(request.query as Record<string, unknown>)));
        },
      );
      scope.get(
        `${prefix}/:project_id/feature_flags/:key_or_id/remote_config`,
        {
          config: { scope: 'feature_flag:read', secretKey: true },
          schema: {
            tags: ['sdk'],
            summary: "A remote-config flag's payload (the JSON string, or null); 404 for other flags",
            params: Type.Object({ project_id: Type.String(), key_or_id: Type.String({ description: "The flag's key or id" }) }),
            response: { 200: Type.Union([Type.String(), Type.Null()]) },
          },
        },
        async (request, reply) => {
          const { project_id, key_or_id } = request.params;
          const payload = await sdk.remoteConfigPayload(flagReaderOf(request), project_id, key_or_id);
          return reply.header('content-type', 'application/json').send(JSON.stringify(payload));
        },
      );
    }
  });
}

/** The page asking, for the project's recording domains. */
const recordingClient = (request: FastifyRequest) => ({
  origin: request.headers.origin,
  referer: request.headers.referer,
  userAgent: request.headers['user-agent'],
});
