// Capture use case: decode the request, find the project by its token, normalise the events and
// wait for the group commit that stores them. Demo data and imports enter through `ingest`.
import { capturedEvents } from '../../metrics/registry.js';
import type { CaptureGeoIp } from '../geoip/capture-geoip.js';
import { decodeCaptureRequest, type CaptureRequestInput } from './decode.js';
import { DecodeBudget } from './decode-budget.js';
import type { GroupCommitter } from './group-commit.js';
import type { TeamEvents } from './event-writer.js';
import { normaliseEvents, requestToken } from './normalise.js';
import type { ProjectTokens } from './project-tokens.js';
import type { CapturedEvent } from './types.js';
import type { CaptureWriterLease } from './writer-lease.js';

export interface CaptureOptions {
  /** `/engage/` payloads without an event name are `$identify` (as PostHog's Django capture did). */
  defaultEventName?: string;
  /** The client's address (socket peer, or X-Forwarded-For from a trusted proxy): `$ip` unless sent. */
  clientIp?: string | null;
}

export class CaptureService {
  constructor(
    private readonly tokens: ProjectTokens,
    private readonly committer: GroupCommitter<TeamEvents>,
    private readonly decodeBudget: DecodeBudget = new DecodeBudget(),
    /** Absent: this process is the only writer (tests of the service alone). */
    private readonly writerLease: CaptureWriterLease | null = null,
    /** Refuses new events (or, for ingest, waits) while too many acknowledged ones wait to be inserted. */
    private readonly backlog: { assertRoom(): void; waitForRoom(): Promise<void> } | null = null,
    /** `$ip`, anonymize_ips and GeoIP; absent: events are stored as sent (tests of the service alone). */
    private readonly geoip: CaptureGeoIp | null = null,
  ) {}

  /** Resolves once every event of the request is stored (in the capture log); throws a 4xx/503 ApiError otherwise. */
  async capture(input: CaptureRequestInput, options: CaptureOptions = {}): Promise<void> {
    this.writerLease?.assertHeld();
    this.backlog?.assertRoom();
    // The decoded request stays in memory until its events are stored, and counts until then.
    const reservation = this.decodeBudget.open();
    try {
      const payload = await decodeCaptureRequest(input, reservation);
      const token = requestToken(payload, firstValue(input.query.token) ?? firstValue(input.query.api_key));
      const teamId = await this.tokens.projectIdOf(token);
      const events = normaliseEvents(payload, {
        nowUs: Date.now() * 1000,
        sentAt: payload.sentAt,
        historicalMigration: payload.historicalMigration,
        ...(options.defaultEventName ? { defaultEventName: options.defaultEventName } : {}),
      });
      // A historical migration replays events captured elsewhere: the importer's address is not theirs.
      const clientIp = payload.historicalMigration ? null : (options.clientIp ?? null);
      await this.geoip?.apply(teamId, events, clientIp);
      await this.committer.submit({ teamId, events });
      capturedEvents.acknowledged.inc(events.length);
    } finally {
      reservation.release();
    }
  }

  /** Stores already-normalised events of one project (demo data, imports). */
  async ingest(teamId: number, events: CapturedEvent[]): Promise<void> {
    this.writerLease?.assertHeld();
    // A sender in this process keeps its own pace: it waits for the inserts rather than being refused.
    await this.backlog?.waitForRoom();
    await this.committer.submit({ teamId, events });
    capturedEvents.acknowledged.inc(events.length);
  }

  /** Waits for everything accepted so far to be written (graceful shutdown). */
  drain(): Promise<void> {
    return this.committer.drain();
  }
}

function firstValue(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}
