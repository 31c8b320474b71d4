// Where `hoglet import` and `hoglet demo` send events: to the running server over its capture
// endpoint when one owns the event store (chDB allows one process), else straight into the
// stores in this process.
import type { Config } from './config.js';
import type { IngestTarget } from './core/import/jsonl-import.js';
import { localUrl } from './local-url.js';
import { announcedServerUrl, eventStoreOwner } from './storage/events/owner-lock.js';
import { createAccountServices, createServices, type Services } from './services.js';
import { postBatch } from './batch-post.js';

export interface OpenTarget extends IngestTarget {
  /** How events travel, for the user: "server at http://..." or "in-process". */
  readonly description: string;
  /** In-process services, when there is no server to go through. */
  readonly services: Services | null;
  close(): Promise<void>;
}

export class TargetError extends Error {}

/** Resolves the project (it must exist) and picks the way in. */
export async function openIngestTarget(config: Config, projectId: number): Promise<OpenTarget> {
  const accounts = await createAccountServices(config);
  let token: string;
  try {
    const project = await accounts.repositories.projects.findById(projectId);
    if (!project) throw new TargetError(`no project with id ${projectId}`);
    token = project.api_token;
  } finally {
    await accounts.close();
  }

  const owner = config.events.clickhouseUrl ? null : eventStoreOwner(config.events.chdbPath);
  if (owner !== null) return serverTarget(announcedServerUrl(config.events.chdbPath, owner) ?? localUrl(config.host, config.port), token, owner);

  const services = await createServices(config);
  return {
    description: 'in-process',
    services,
    send: (_raw, events) => services.capture.ingest(projectId, events),
    close: () => services.close(),
  };
}

// How long an import waits out a running server's 503s (its insert queue full) before it stops.
const SERVER_PATIENCE_MS = 5 * 60_000;

function serverTarget(baseUrl: string, token: string, pid: number): OpenTarget {
  const url = `${baseUrl}/batch/`;
  return {
    description: `the server (pid ${pid}) at ${url}`,
    services: null,
    async send(raw) {
      const refused = await postBatch(url, JSON.stringify({ api_key: token, historical_migration: true, batch: raw }), SERVER_PATIENCE_MS);
      if (refused) throw new TargetError(`the server answered ${refused.status}: ${refused.text}`);
    },
    close: async () => {},
  };
}
