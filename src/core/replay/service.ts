// /s/: session recording snapshots. The request is decoded as any capture request (every encoding
// posthog-js uses), its project found by token, its rrweb data grouped per session (dropped, still
// answered 200, when the project has recording off: services.ts reads it with core/projects/setting-flag.ts), checked against the
// per-minute budgets, then each session's block is compressed and fsync'd under the
// data directory and its summary row inserted into session_replay_events (group-committed with
// other requests' rows: summary-rows.ts); only then is it answered 200. A retried request stores
// and counts nothing twice (block names and their hashes in the rows come from the content). Requests are independent: a bad or refused one never touches another.
import { ServiceUnavailableError } from '../../errors.js';
import type { EventStore } from '../../storage/events/event-store.js';
import { decodeCaptureRequest, type CaptureRequestInput } from '../capture/decode.js';
import { DecodeBudget } from '../capture/decode-budget.js';
import { requestToken } from '../capture/normalise.js';
import type { ProjectTokens } from '../capture/project-tokens.js';
import type { CaptureWriterLease } from '../capture/writer-lease.js';
import { RecordingBlockStore, type BlockInfo, type RecordingBlocks } from './block-store.js';
import { ReplayBudget, type ReplayLimits } from './budget.js';
import { snapshotsBySession, type SessionSnapshots, type SnapshotLine } from './snapshots.js';
import { summariseBlock } from './summary.js';
import { blockTimes } from './block-times.js';
import { SummaryRows } from './summary-rows.js';

export interface ReplayCaptureOptions {
  userAgent?: string | undefined;
}

export class ReplayService {
  private readonly budget: ReplayBudget;
  private readonly summaryRows: SummaryRows;

  constructor(
    private readonly tokens: ProjectTokens,
    /** The project's `session_recording_opt_in` (core/projects/setting-flag.ts): off, nothing is stored. */
    private readonly recordingOn: (teamId: number) => Promise<boolean>,
    readonly blocks: RecordingBlocks,
    store: EventStore,
    limits: ReplayLimits,
    private readonly decodeBudget: DecodeBudget = new DecodeBudget(),
    private readonly writerLease: CaptureWriterLease | null = null,
    now: () => number = Date.now,
  ) {
    this.budget = new ReplayBudget(limits, now);
    this.summaryRows = new SummaryRows(store);
  }

  /** Resolves once every snapshot of the request is stored; throws a 4xx/503 ApiError otherwise. */
  async capture(input: CaptureRequestInput, options: ReplayCaptureOptions = {}): Promise<void> {
    this.writerLease?.assertHeld();
    const reservation = this.decodeBudget.open();
    try {
      const payload = await decodeCaptureRequest(input, reservation);
      const token = requestToken(payload, firstValue(input.query.token) ?? firstValue(input.query.api_key));
      const teamId = await this.tokens.projectIdOf(token);
      const sessions = snapshotsBySession(payload.events, options.userAgent).filter((session) => session.lines.length > 0);
      // Checked after the body's own checks, so a bad body is refused alike whatever the setting.
      if (!(await this.recordingOn(teamId))) return;
      const texts = sessions.map((session) => RecordingBlockStore.encode(session.lines));
      const giveBack = this.budget.take(teamId, new Map(sessions.map((session, i) => [session.sessionId, Buffer.byteLength(texts[i]!)])));
      try {
        await Promise.all(sessions.map((session, i) => this.storeSession(teamId, session, texts[i]!)));
      } catch (error) {
        giveBack();
        throw error;
      }
    } finally {
      reservation.release();
    }
  }

  private async storeSession(teamId: number, session: SessionSnapshots, text: string): Promise<void> {
    const summary = summariseBlock(session.lines);
    let block;
    try {
      block = await this.blocks.write(teamId, session.sessionId, text, summary.firstTimestampMs, blockTimes(session.lines));
    } catch (error) {
      const failure = new ServiceUnavailableError('Recordings could not be stored right now; retry shortly.');
      failure.cause = error;
      throw failure;
    }
    const first = Number.isFinite(summary.firstTimestampMs) ? summary.firstTimestampMs : Date.now();
    const last = Number.isFinite(summary.lastTimestampMs) ? summary.lastTimestampMs : first;
    // Joins the next group-committed INSERT of summary rows (summary-rows.ts); a block already on
    // disk (a request sent again) is counted only if its row is not there yet.
    await this.summaryRows.add({
      team_id: teamId,
      session_id: session.sessionId,
      distinct_id: session.distinctId,
      first_ts: microsText(first),
      last_ts: microsText(last),
      first_url_text: summary.firstUrl ?? '',
      urls: summary.urls,
      clicks: summary.clickCount,
      keypresses: summary.keypressCount,
      mouse: summary.mouseActivityCount,
      active_ms: summary.activeMilliseconds,
      logs: summary.consoleLogCount,
      warns: summary.consoleWarnCount,
      errors: summary.consoleErrorCount,
      size_bytes: summary.size,
      messages: session.messages,
      event_total: summary.eventCount,
      source: session.source,
      library: session.library,
      block: SummaryRows.blockHash(teamId, session.sessionId, block.name),
    }, !block.created);
  }

  /** A session's blocks in playback order. */
  listBlocks(teamId: number, sessionId: string): Promise<BlockInfo[]> {
    return this.blocks.list(teamId, sessionId);
  }

  /** One block's rrweb events, each with the window it was recorded in. */
  readBlock(teamId: number, sessionId: string, name: string): Promise<SnapshotLine[]> {
    return this.blocks.readBlock(teamId, sessionId, name);
  }

  /** The session's rrweb events in stored order (blocks by first time, lines as sent). */
  async readEvents(teamId: number, sessionId: string): Promise<Array<Record<string, unknown>>> {
    return (await this.blocks.readSession(teamId, sessionId)).map(([, event]) => event);
  }
}

/** `YYYY-MM-DD hh:mm:ss.ffffff` (UTC) of a millisecond time, as toDateTime64 reads it. */
function microsText(ms: number): string {
  const clamped = Math.max(0, Math.min(ms, 4_102_444_799_000));
  return new Date(Math.trunc(clamped)).toISOString().replace('T', ' ').replace('Z', '') + String(Math.round((clamped % 1) * 1000)).padStart(3, '0');
}

function firstValue(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : value;
}
