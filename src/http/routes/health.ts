import { Type } from 'typebox';
import type { Services } from '../../services.js';
import type { HogletApp } from '../hoglet-app.js';

export function healthRoutes(app: HogletApp, services: Services): void {
  app.get('/_health', {
    schema: {
      tags: ['health'],
      response: { 200: Type.Object({ status: Type.String() }), 503: Type.Object({ status: Type.String() }) },
    },
    handler: async (request, reply) => {
      try {
        await services.ping();
        return { status: 'ok' };
      } catch (error) {
        request.log.error({ err: error }, 'health check failed');
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  });
}
