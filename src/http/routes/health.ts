import { Type } from 'typebox';
import type { Services } from '../../services.js';
import { eventStoreMigrationLevel, metadataMigrationLevel, type MigrationLevels } from '../../storage/migration-levels.js';
import { HOGLET_VERSION } from '../../version.js';
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

/** The highest migration applied to each store (src/storage/meta/migrations, src/storage/events/migrations). */
const MigrationLevelsSchema = Type.Object({
  metadata: Type.Union([Type.Integer(), Type.Null()]),
  events: Type.Union([Type.Integer(), Type.Null()]),
});

const HealthBody = Type.Object({
  status: Type.String(),
  version: Type.String(),
  migrations: Type.Optional(MigrationLevelsSchema),
  capture: Type.Optional(CaptureStatus),
  flag_subjects: Type.Optional(FlagSubjectsStatus),
});

export function healthRoutes(app: HogletApp, services: Services): void {
  // Migrations run when the stores open, before the server listens: read once, then kept.
  let levels: MigrationLevels | undefined;
  const migrationLevels = async (): Promise<MigrationLevels | undefined> =>
    (levels ??= { metadata: await metadataMigrationLevel(services.meta.db), events: await eventStoreMigrationLevel(services.events) });

  app.get('/_health', {
    schema: {
      tags: ['health'],
      response: { 200: HealthBody, 503: HealthBody },
    },
    handler: async (request, reply) => {
      const version = HOGLET_VERSION;
      const migrations = await migrationLevels().catch((error: unknown) => {
        request.log.warn({ err: error }, 'could not read the migration levels');
        return undefined;
      });
      // Set-aside events are counted even while a store is down: they must never go unnoticed.
      const capture = await services.captureStatus().catch((error: unknown) => {
        request.log.warn({ err: error }, 'could not count the capture log\'s set-aside events');
        return undefined;
      });
      try {
        await services.ping();
        return { status: 'ok', version, migrations, ...(capture ? { capture } : {}), flag_subjects: services.flagSources.subjects.warmUp.status() };
      } catch (error) {
        noteServerError(request, error);
        return reply.code(503).send({ status: 'unavailable', version, ...(migrations ? { migrations } : {}), ...(capture ? { capture } : {}) });
      }
    },
  });
}
