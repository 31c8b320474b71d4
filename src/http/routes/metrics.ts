// GET /metrics: Prometheus' text format. Served to loopback callers (a scraper on this machine),
// and to anyone presenting `Authorization: Bearer <HOGLET_METRICS_TOKEN>` when one is configured;
// everyone else gets 403 (the same answer whether or not a token is configured).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { Registry } from 'prom-client';
import { PermissionDeniedError } from '../../errors.js';
import { collectProcessDefaults, processMetrics } from '../../metrics/registry.js';
import { serverGauges } from '../../metrics/server-gauges.js';
import type { Services } from '../../services.js';
import type { HogletApp } from '../hoglet-app.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * On this machine and not relayed: a reverse proxy on the same host connects from loopback too,
 * so a request that carries a proxy's forwarding header is treated as remote.
 */
function fromLoopback(request: FastifyRequest): boolean {
  const peer = request.raw.socket.remoteAddress ?? '';
  return LOOPBACK.test(peer) && request.headers['x-forwarded-for'] === undefined && request.headers.forwarded === undefined;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

function presentsToken(request: FastifyRequest, expected: Buffer | null): boolean {
  if (!expected) return false;
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  // Digests of equal length, compared in constant time.
  return bearer !== null && timingSafeEqual(digest(bearer[1]!), expected);
}

export function metricsRoutes(app: HogletApp, services: Services): void {
  collectProcessDefaults();
  const registry = Registry.merge([processMetrics, serverGauges(services)]);
  const expected = services.config.metricsToken ? digest(services.config.metricsToken) : null;
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!fromLoopback(request) && !presentsToken(request, expected)) {
      throw new PermissionDeniedError('Metrics are served to loopback callers, or with `Authorization: Bearer <HOGLET_METRICS_TOKEN>` when the server has one.');
    }
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
}
