// PostHog's capture endpoints. Bodies arrive as raw bytes (JSON, gzip, base64, lz64 or forms, in
// any content type), so these routes live in their own scope with a pass-through body parser.
// Browsers post cross-origin with credentials, so CORS echoes the origin, on errors too.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../services.js';
import type { CaptureRequestInput } from '../../core/capture/decode.js';
import { clientAddress, proxyTrust } from '../../core/geoip/client-ip.js';
import { countCaptureRequest } from '../../metrics/registry.js';
import type { HogletApp } from '../hoglet-app.js';

/** PostHog's Rust capture takes up to 20 MB on /batch/; Hoglet allows that on every path. */
export const CAPTURE_BODY_LIMIT_BYTES = 20 * 1024 * 1024;

const PATHS = ['/e', '/i/v0/e', '/batch', '/capture', '/track', '/engage'] as const;

const CaptureResponse = {
  type: 'object',
  properties: { status: { type: 'integer', const: 1 } },
} as const;

function corsHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const origin = request.headers.origin;
  reply.header('access-control-allow-origin', origin ?? '*');
  if (origin) {
    reply.header('access-control-allow-credentials', 'true');
    reply.header('vary', 'Origin');
  }
}

/**
 * Registers routes in a scope that takes any body as raw bytes and answers every request with
 * CORS headers. They are set before the handler runs, so error answers carry them too (the
 * shared error handler keeps headers already set), as PostHog's CORS layer wraps errors.
 */
export async function sdkScope(app: HogletApp, register: (scope: HogletApp) => void): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: CAPTURE_BODY_LIMIT_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    scope.addHook('onRequest', async (request, reply) => corsHeaders(request, reply));
    register(scope);
  // Browsers and SDKs call these thousands of times a second: no log line per request (two per
  // request cost about a tenth of /e/'s time); 503s and errors are still logged.
  }, { logLevel: 'warn' });
}

/** Answers the browser's CORS preflight for a path, allowing whatever headers it asks for. */
export function allowPreflight(scope: HogletApp, path: string): void {
  scope.options(path, { schema: { hide: true } }, async (request, reply) => {
    reply.header('access-control-allow-methods', 'GET, POST, OPTIONS, HEAD');
    reply.header('access-control-allow-headers', request.headers['access-control-request-headers'] ?? '*');
    reply.header('access-control-max-age', '86400');
    return reply.code(200).send();
  });
}

/** The request as the capture decoder reads it. */
export function toInput(request: FastifyRequest): CaptureRequestInput {
  return {
    method: request.method === 'GET' ? 'GET' : 'POST',
    body: Buffer.isBuffer(request.body) ? request.body : undefined,
    contentType: request.headers['content-type'],
    contentEncoding: request.headers['content-encoding'],
    query: (request.query ?? {}) as Record<string, unknown>,
  };
}

export async function captureRoutes(app: HogletApp, services: Services): Promise<void> {
  const trusted = proxyTrust(services.config.captureTrustProxy);
  await sdkScope(app, (scope) => {
    scope.addHook('onResponse', async (request, reply) => {
      if (request.method !== 'OPTIONS') countCaptureRequest(reply.statusCode);
    });
    for (const path of PATHS) {
      const defaultEventName = path === '/engage' ? '$identify' : undefined;
      const handler = async (request: FastifyRequest, reply: FastifyReply) => {
        // The socket's peer, not Fastify's request.ip: capture has its own proxy trust (config.ts).
        const clientIp = clientAddress(request.raw.socket.remoteAddress, request.headers['x-forwarded-for'], trusted);
        await services.capture.capture(toInput(request), { clientIp, ...(defaultEventName ? { defaultEventName } : {}) });
        const query = request.query as Record<string, unknown>;
        // Only sendBeacon adds ?beacon=1 (posthog-js did until mid-2026), and it reads no answer.
        if (query.beacon === '1') return reply.code(204).send();
        return { status: 1 as const };
      };
      const schema = {
        tags: ['capture'],
        summary: `Capture events (${path}/)`,
        security: [],
        response: { 200: CaptureResponse },
      };
      scope.post(path, { schema, bodyLimit: CAPTURE_BODY_LIMIT_BYTES }, handler);
      scope.get(path, { schema }, handler);
      allowPreflight(scope, path);
    }

    // Session recordings: each session's rrweb data stored (fsync'd) before the 200 (core/replay/).
    const recordings = {
      tags: ['capture'],
      summary: 'Session recording snapshots (/s/)',
      security: [],
      response: { 200: CaptureResponse },
    };
    const storeRecording = async (request: FastifyRequest) => {
      await services.replay.capture(toInput(request), { userAgent: request.headers['user-agent'] });
      return { status: 1 as const };
    };
    scope.post('/s', { schema: recordings, bodyLimit: CAPTURE_BODY_LIMIT_BYTES }, storeRecording);
    scope.get('/s', { schema: recordings }, storeRecording);
    allowPreflight(scope, '/s');
  });
}
