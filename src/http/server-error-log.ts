// Every 5xx answer is logged once, when it is sent: its request id (the logger's `reqId`, also the
// answer's x-request-id header), method, route pattern (never the URL, which may carry a key),
// status, and the error behind it when one was noted. 503s (a store short of disk or busy: retry
// later) at warn, other 5xx at error. Each one also counts in hoglet_http_server_errors_total.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { countServerError } from '../metrics/registry.js';

interface Noted {
  err: unknown;
  /** An InternalError's code, or 'unhandled'. */
  code?: string;
}

const noted = new WeakMap<FastifyRequest, Noted>();

/** The error a 5xx answer is about to be sent for: logged with it, once, when the answer goes. */
export function noteServerError(request: FastifyRequest, err: unknown, code?: string): void {
  noted.set(request, code === undefined ? { err } : { err, code });
}

export function installServerErrorLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    if (status < 500) return;
    countServerError(status);
    const fields = { method: request.method, route: request.routeOptions.url ?? null, status, ...noted.get(request) };
    if (status === 503) request.log.warn(fields, `answered ${status}`);
    else request.log.error(fields, `answered ${status}`);
  });
}
