// The server's request log without secrets: a personal API key may come in the query string
// (PostHog's clients send ?personal_api_key=), a shared insight's link carries its token, and
// Fastify logs every request's URL at the default level. Their values are replaced, the rest kept.
import type { FastifyServerOptions } from 'fastify';
import type { LogLevel } from '../config.js';

const SECRET_PARAMETERS = /([?&](?:personal_api_key|sharing_access_token|access_token|token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMETERS, '$1[redacted]');
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** Fastify's logger options for the server: its own request fields, with the URL redacted. */
export function serverLoggerOptions(level: LogLevel) {
  return {
    level,
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  } satisfies FastifyServerOptions['logger'];
}
