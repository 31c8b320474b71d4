// `hoglet capture reinsert`: inserts the events the event store refused after acknowledging them
// (set aside in the capture log's refused/ directory) again, once an operator has fixed the cause.
// Like `import`, through the running server's /batch/ when one owns the capture log, else in this
// process. A file is removed only when its events are dealt with: the log that took them again has
// inserted past them and none was set aside again (in-process the store is also asked for their
// uuids). Events refused again stay set aside, in a new file with the new reason; events a server
// did not confirm in time keep their file for the next run. Uuids make a repeat harmless.
import type { Config } from './config.js';
import { SetAsideEvents, type SetAsideRecord } from './core/capture/log/set-aside.js';
import type { CapturedEvent } from './core/capture/types.js';
import { localUrl } from './local-url.js';
import { createAccountServices, createServices, type CaptureStatus, type Services } from './services.js';
import { EventsRepository } from './storage/events/events-repository.js';
import { announcedServerUrl, eventStoreOwner } from './storage/events/owner-lock.js';
import { formatMicros } from './storage/events/time.js';
import { postBatch } from './batch-post.js';

export interface ReinsertSummary {
  /** How the events travelled: "the server (pid N) at URL" or "in-process". */
  through: string;
  files: number;
  /** Events stored (their files removed). */
  stored: number;
  /** Events the store refused again: set aside anew, with the new reason. */
  refusedAgain: { events: number; reason: string }[];
  /** Files kept (not confirmed, or their project is gone), with why. */
  kept: { file: string; why: string }[];
}

/** What reinserting needs from wherever the events go. */
interface Route {
  through: string;
  /** Sends one project's events; resolves once they are acknowledged (in the capture log). */
  send(teamId: number, events: CapturedEvent[]): Promise<void>;
  status(): Promise<CaptureStatus>;
  /** In-process: which of the uuids the event store holds (null: cannot ask). */
  storedUuids(teamId: number, uuids: string[]): Promise<Set<string> | null>;
  close(): Promise<void>;
}

/** How long one file's events may take to be inserted before the file is kept for another run. */
const CONFIRM_TIMEOUT_MS = 120_000;
/** Events per /batch/ request (far below its 20 MB body limit for any event capture accepted). */
const EVENTS_PER_REQUEST = 500;

export async function reinsertSetAside(config: Config, onProgress: (line: string) => void = () => {}): Promise<ReinsertSummary> {
  const setAside = SetAsideEvents.of(config.captureLogDir);
  const names = await setAside.names();
  const summary: ReinsertSummary = { through: '', files: names.length, stored: 0, refusedAgain: [], kept: [] };
  if (names.length === 0) return summary;
  const route = await openRoute(config);
  summary.through = route.through;
  try {
    for (const name of names) {
      const record = await setAside.read(name);
      const uuids = record.events.map((event) => event.uuid);
      try {
        await route.send(record.teamId, record.events);
      } catch (error) {
        summary.kept.push({ file: name, why: error instanceof Error ? error.message : String(error) });
        continue;
      }
      if (!(await dealtWith(route))) {
        summary.kept.push({ file: name, why: 'sent, but not confirmed inserted in time; run the command again' });
        continue;
      }
      const again = await refusedAgain(setAside, name, new Set(uuids));
      if (again) {
        summary.refusedAgain.push({ events: uuids.length, reason: again.reason });
      } else {
        const stored = await route.storedUuids(record.teamId, uuids);
        const missing = stored === null ? 0 : uuids.filter((uuid) => !stored.has(uuid)).length;
        if (missing > 0) {
          summary.kept.push({ file: name, why: `${missing} of its events are not in the event store` });
          continue;
        }
        summary.stored += uuids.length;
      }
      // Stored, or set aside again under a new name: this file has served its purpose.
      await setAside.remove(name);
      onProgress(`${name}: ${again ? `refused again (${again.reason})` : `${uuids.length} event(s) stored`}`);
    }
  } finally {
    await route.close();
  }
  return summary;
}

/** Waits until the log has dealt with everything acknowledged so far (inserted or set aside). */
async function dealtWith(route: Route): Promise<boolean> {
  const target = (await route.status()).log.acknowledged;
  const deadline = Date.now() + CONFIRM_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if ((await route.status()).log.inserted >= target) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** A set-aside file other than `original` that holds any of the uuids: the store refused them again. */
async function refusedAgain(setAside: SetAsideEvents, original: string, uuids: Set<string>): Promise<SetAsideRecord | null> {
  for (const name of (await setAside.names()).reverse()) {
    if (name === original) continue;
    const record = await setAside.read(name).catch(() => null);
    if (record?.events.some((event) => uuids.has(event.uuid))) return record;
  }
  return null;
}

async function openRoute(config: Config): Promise<Route> {
  // The capture log's owner is the server that captures; without one, this process takes the log.
  const owner = eventStoreOwner(config.captureLogDir);
  if (owner === null) return inProcess(await createServices(config));
  const base = (config.events.clickhouseUrl ? null : announcedServerUrl(config.events.chdbPath, owner)) ?? localUrl(config.host, config.port);
  return throughServer(base, owner, await projectTokens(config));
}

function inProcess(services: Services): Route {
  const events = new EventsRepository(services.events);
  return {
    through: 'in-process',
    send: (teamId, batch) => services.capture.ingest(teamId, batch),
    status: () => services.captureStatus(),
    storedUuids: (teamId, uuids) => events.existingUuids(teamId, uuids),
    close: () => services.close(),
  };
}

/** Each project's current token (the CLI reads the metadata store, which a server shares). */
async function projectTokens(config: Config): Promise<(teamId: number) => Promise<string | null>> {
  return async (teamId) => {
    const accounts = await createAccountServices(config);
    try {
      return (await accounts.repositories.projects.findById(teamId))?.api_token ?? null;
    } finally {
      await accounts.close();
    }
  };
}

function throughServer(base: string, pid: number, tokenOf: (teamId: number) => Promise<string | null>): Route {
  const tokens = new Map<number, string | null>();
  return {
    through: `the server (pid ${pid}) at ${base}`,
    async send(teamId, events) {
      if (!tokens.has(teamId)) tokens.set(teamId, await tokenOf(teamId));
      const token = tokens.get(teamId);
      if (!token) throw new Error(`project ${teamId} no longer exists`);
      for (let i = 0; i < events.length; i += EVENTS_PER_REQUEST) {
        await sendEvents(`${base}/batch/`, token, events.slice(i, i + EVENTS_PER_REQUEST));
      }
    },
    async status() {
      const response = await fetch(`${base}/_health`);
      const body = (await response.json()) as { capture?: CaptureStatus };
      if (!body.capture) throw new Error(`the server at ${base} does not report its capture log (an older Hoglet?)`);
      return body.capture;
    },
    storedUuids: async () => null,
    close: async () => {},
  };
}

async function sendEvents(url: string, token: string, events: CapturedEvent[]): Promise<void> {
  // Historical or not, per event; one request carries one kind.
  for (const historical of [false, true]) {
    const batch = events.filter((event) => event.historicalMigration === historical).map(toRawEvent);
    if (batch.length === 0) continue;
    const refused = await postBatch(url, JSON.stringify({ api_key: token, historical_migration: historical, batch }), 5 * 60_000);
    if (refused) throw new Error(`the server answered ${refused.status}: ${refused.text}`);
  }
}

/** A captured event as a client sends it; capture's normalisation gives the same event back. */
function toRawEvent(event: CapturedEvent): Record<string, unknown> {
  // Microseconds kept; zone-less text is UTC; no sent_at, so the timestamp is taken as it is.
  return { uuid: event.uuid, event: event.event, distinct_id: event.distinctId, timestamp: formatMicros(event.timestampUs), properties: event.properties };
}
