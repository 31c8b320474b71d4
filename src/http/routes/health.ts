import { Type } from 'typebox';
import type { Services } from '../../services.js';
import type { HogletApp } from '../hoglet-app.js';
import { noteServerError } from '../server-error-log.js';

/** What capture holds outside the event store: events waiting, and events set aside for an operator. */
const CaptureStatus = Type.Object({
  waiting_events: Type.Integer(),
  set_aside_events: Type.Integer(),
  set_aside_files: Type.Integer(),
  log: Type.Object({ acknowledged: Type.Integer(), inserted: Type.Integer() }),
});

/** The /flags/ subject cache's background warm-up after start (src/core/flags/subjects/warm-up.ts). */
const FlagSubjectsStatus = Type.Object({
  warming: Type.Boolean(),
  persons: Type.Integer(),
  longest_loop_delay_ms: Type.Number(),
});

export function healthRoutes(app: HogletApp, services: Services): void {
  app.get('/_health', {
    schema: {
      tags: ['health'],
      response: {
        200: Type.Object({ status: Type.String(), capture: Type.Optional(CaptureStatus), flag_subjects: Type.Optional(FlagSubjectsStatus) }),
        503: Type.Object({ status: Type.String(), capture: Type.Optional(CaptureStatus), flag_subjects: Type.Optional(FlagSubjectsStatus) }),
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
        return { status: 'ok', ...(capture ? { capture } : {}), flag_subjects: services.flagSources.subjects.warmUp.status() };
      } catch (error) {
        noteServerError(request, error);
        return reply.code(503).send({ status: 'unavailable', ...(capture ? { capture } : {}) });
      }
    },
  });
}
