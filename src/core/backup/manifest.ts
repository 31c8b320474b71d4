// What a backup archive says about itself (manifest.json, its first entry).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The archive's layout; restore refuses a newer one it does not know. */
export const BACKUP_FORMAT = 1;
export const MANIFEST_FILE = 'manifest.json';

export interface BackupManifest {
  format: number;
  /** Hoglet's version that wrote it (package.json). */
  hoglet_version: string;
  /** When the stores were frozen: the backup's instant (ISO 8601, UTC). */
  taken_at: string;
  /** How long capture's inserts waited for the freeze (acknowledging went on meanwhile). */
  paused_ms: number;
  /** The newest migration applied to each store. */
  migrations: { metadata: string | null; event_store: number | null };
  /** The capture log's records up to this are in the event store; later ones are replayed at start. */
  capture_log: { inserted_seq: number; segments: number; bytes: number };
  /** The event store's tables frozen, with their parts. */
  event_tables: { name: string; parts: number }[];
}

export function hogletVersion(): string {
  // src/core/backup and dist/core/backup are both three levels below the package.
  const file = fileURLToPath(new URL('../../../package.json', import.meta.url));
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}
