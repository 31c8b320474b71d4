import { Type } from 'typebox';
import type { Services } from '../../services.js';
import type { HogletApp } from '../hoglet-app.js';

/** What capture holds outside the event store: events waiting, and events set aside for an operator. */
const CaptureStatus = Type.Object({
  waiting_events: Type.Integer(),
  set_aside_events: Type.Integer(),
  set_aside_files: Type.Integer(),
  log: Type.Object({ acknowledged: Type.Integer(), inserted: Type.Integer() }),
});

export function healthRoutes(app: HogletApp, services: Services): void {
  app.get('/_health', {
    schema: {
      tags: ['health'],
      response: {
        200: Type.Object({ status: Type.String(), capture: Type.Optional(CaptureStatus) }),
        503: Type.Object({ status: Type.String(), capture: Type.Optional(CaptureStatus) }),
      },
    },
    handler: async (request, reply) => {
      // Set-aside events are counted even while a store is down: they must never go unnoticed.
      const capture = await services.captureStatus().catch((error: unknown) => {
        request.log.warn({ err: error }, 'could not count the capture log\'s set-aside events');
        return undefined;
      });
      try {
        await services.ping();
        return { status: 'ok', ...(capture ? { capture } : {}) };
      } catch (error) {
        request.log.error({ err: error }, 'health check failed');
        return reply.code(503).send({ status: 'unavailable', ...(capture ? { capture } : {}) });
      }
    },
  });
}
