// POST /_backup/snapshot: `hoglet backup` asks the server that owns the embedded stores for a
// consistent copy of them (src/core/backup/snapshot.ts). Not a PostHog route and not for clients:
// only a connection from this machine, without a proxy's forwarding header, that names a staging
// directory it made inside the data directory (an unguessable name, empty): proof that the caller
// may already read the data directory itself.
import fs from 'node:fs';
import path from 'node:path';
import { Type } from 'typebox';
import { NotFoundError, ServiceUnavailableError, ValidationError } from '../../errors.js';
import { STAGING_NAME } from '../../core/backup/snapshot.js';
import type { Services } from '../../services.js';
import type { HogletApp } from '../hoglet-app.js';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

export function backupRoutes(app: HogletApp, services: Services): void {
  app.post('/_backup/snapshot', {
    schema: { hide: true, body: Type.Object({ staging: Type.String() }) },
    handler: async (request) => {
      const { remoteAddress = '', localAddress } = request.raw.socket;
      // This machine: loopback, or the address the server listens on (--host of one interface).
      const local = LOOPBACK.test(remoteAddress) || remoteAddress === localAddress;
      // Told apart from an unknown route only by a caller that may ask.
      // A proxy on this machine connects from here too: either forwarding header marks a relayed caller.
      if (!local || request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined) throw new NotFoundError();
      const { staging } = request.body;
      const dir = path.join(services.config.dataDir, staging);
      if (!STAGING_NAME.test(staging) || !isEmptyDirectory(dir)) throw new ValidationError('staging must name an empty .backup-<16 hex> directory in the data directory', 'staging');
      if (services.config.databaseUrl || services.config.events.clickhouseUrl) {
        throw new ValidationError('this server keeps its data in PostgreSQL or a ClickHouse server: back those up with pg_dump and ClickHouse BACKUP', null);
      }
      try {
        return { manifest: await services.backupSnapshot(dir) };
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL') throw new ServiceUnavailableError('the disk holding the data directory is full');
        throw error;
      }
    },
  });
}

function isEmptyDirectory(dir: string): boolean {
  try {
    return fs.lstatSync(dir).isDirectory() && fs.readdirSync(dir).length === 0;
  } catch {
    return false;
  }
}
