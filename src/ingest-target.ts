// Where `hoglet import` and `hoglet demo` send events: to the running server over its capture
// endpoint when one owns the event store (chDB allows one process), else straight into the
// stores in this process.
import type { Config } from './config.js';
import type { IngestTarget } from './core/import/jsonl-import.js';
import { localUrl } from './local-url.js';
import { announcedServerUrl, eventStoreOwner } from './storage/events/owner-lock.js';
import { createAccountServices, createServices, type Services } from './services.js';

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

function serverTarget(baseUrl: string, token: string, pid: number): OpenTarget {
  const url = `${baseUrl}/batch/`;
  return {
    description: `the server (pid ${pid}) at ${url}`,
    services: null,
    async send(raw) {
      const body = JSON.stringify({ api_key: token, historical_migration: true, batch: raw });
      for (let attempt = 1; ; attempt++) {
        const response = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } }).catch(
          (error: unknown) => ({ ok: false, status: 0, text: async () => String(error) }),
        );
        if (response.ok) return;
        // 503 means "not stored, retry"; uuids make the retry safe.
        // (A server ingesting faster than it can insert refuses for a second or two at a time.)
        if ((response.status === 503 || response.status === 0) && attempt < 10) {
          await new Promise((resolve) => setTimeout(resolve, Math.min(500 * attempt, 3_000)));
          continue;
        }
        throw new TargetError(`the server answered ${response.status}: ${await response.text()}`);
      }
    },
    close: async () => {},
  };
}
