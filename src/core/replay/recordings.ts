// PostHog's session recordings API over what /s/ stored: the list and one recording read the
// session_replay_events summary rows (one query, merged per session), the snapshots come from the
// session's blocks, and a delete removes both. Shapes follow PostHog's SessionRecordingSerializer
// and its snapshots endpoint (the "blob" source: one source per stored block).
import { NotFoundError, ValidationError } from '../../errors.js';
import type { EventStore } from '../../storage/events/event-store.js';
import { Ddl, TABLES } from '../../storage/events/tables.js';
import { personsById, type PersonActor } from '../../query/actors/load.js';
import type { QueryExecutor } from '../../query/execute.js';
import type { AccessResolver } from '../access.js';
import type { Principal } from '../auth/principal.js';
import type { RecordingBlocks } from './block-store.js';
import { blockTimes, isoTimes, timesOfName } from './block-times.js';
import { blobLines, blobRange, readBlobRange, type SnapshotsRequest } from './snapshot-ranges.js';
import { flatFilters, readRecordingFilters, type RecordingsListParams } from './list-filters.js';
import { recordingsListQuery } from './list-query.js';
import type { QueryContext } from '../../query/context.js';
import type { InsightQuery } from '../../query/nodes/schema.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';

/** PostHog's RecordingsQuery defaults: the last 3 days, 50 a page. */
const DEFAULT_DATE_FROM = '-3d';
const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 1000;

interface SummaryRow {
  session_id: string;
  distinct_id: string;
  first_ms: string | number;
  last_ms: string | number;
  start_url: string | null;
  clicks: string | number;
  keypresses: string | number;
  mouse: string | number;
  active_ms: string | number;
  logs: string | number;
  warns: string | number;
  errors: string | number;
  source: string | null;
  duration: string | number;
  active_seconds: string | number;
}

export class RecordingsService {
  private readonly ddl: Ddl;

  constructor(
    private readonly access: AccessResolver,
    private readonly store: EventStore,
    private readonly blocks: RecordingBlocks,
    private readonly executor: QueryExecutor,
    /** The query context of the list's filters (actions, cohorts, HogQL, test accounts), as an insight's. */
    private readonly contexts: (project: ProjectRow, query: InsightQuery) => Promise<QueryContext>,
  ) {
    this.ddl = new Ddl(store.layout);
  }

  /** The list with PostHog's RecordingsQuery filters and order, in one statement (list-query.ts). */
  async list(principal: Principal, projectParam: string, params: RecordingsListParams) {
    const project = await this.access.project(principal, projectParam);
    const limit = Math.min(wholeNumber(params.limit) ?? DEFAULT_LIMIT, MAX_LIMIT) || DEFAULT_LIMIT;
    const offset = wholeNumber(params.offset) ?? 0;
    const now = Date.now();
    const from = timeParam(params.date_from ?? DEFAULT_DATE_FROM, now, 'date_from');
    // As PostHog's QueryDateRange, no date_to means now: a recording starting in the future is not listed.
    const to = params.date_to ? timeParam(params.date_to, now, 'date_to') : now;
    let distinctIds: string[] | null = params.distinct_ids ? sessionIdList(params.distinct_ids) : null;
    if (params.person_uuid) distinctIds = (await personsById(this.executor.start(project.id), [params.person_uuid.toLowerCase()])).get(params.person_uuid.toLowerCase())?.distinct_ids ?? [];
    const sessionIds = params.session_ids ? sessionIdList(params.session_ids) : null;
    const filters = readRecordingFilters(params);
    const context = await this.contexts(project, filters.proxy);
    // As PostHog, the project's test-account filters join the properties (under the same operand).
    const properties = [...filters.properties, ...flatFilters(context.testAccountFilters, 'test_account_filters')];
    const query = recordingsListQuery({ from, to, distinctIds, sessionIds, ...filters, properties, limit: limit + 1, offset }, context, now);
    const rows = (await this.executor.start(project.id).rows<SummaryRow & { owner_distinct_id: string }>(query)).map((row) => ({ ...row, distinct_id: row.owner_distinct_id }));
    const page = rows.slice(0, limit);
    const persons = await this.personsOf(project.id, page.map((row) => row.distinct_id));
    return { results: page.map((row) => recordingView(row, persons.get(row.distinct_id))), has_next: rows.length > limit, version: 1 };
  }

  async get(principal: Principal, projectParam: string, sessionId: string) {
    const project = await this.access.project(principal, projectParam);
    return this.getInProject(project.id, sessionId);
  }

  /** One recording of a project already authorised (a member's, or the one a sharing token opens). */
  async getInProject(teamId: number, sessionId: string) {
    const [row] = await this.summaries(teamId, { from: null, to: null, distinctIds: null, sessionIds: [sessionId], limit: 1, offset: 0 });
    if (!row) throw new NotFoundError();
    const persons = await this.personsOf(teamId, [row.distinct_id]);
    return recordingView(row, persons.get(row.distinct_id));
  }

  /** Without a source: the session's sources (one "blob" per block); with one: that block's lines. */
  async snapshots(principal: Principal, projectParam: string, sessionId: string, request: SnapshotsRequest) {
    const project = await this.access.project(principal, projectParam);
    return this.snapshotsInProject(project, sessionId, request, principal.kind === 'key');
  }

  /**
   * Without a source: the sources, PostHog's `blob_v2` ones (keys are block indexes) when asked
   * with `blob_v2=true` as PostHog's player does, else one `blob` per block (older clients).
   * `source=blob_v2` reads a range of blocks in one answer (snapshot-ranges.ts).
   */
  async snapshotsInProject(project: { id: number }, sessionId: string, request: SnapshotsRequest, viaApiKey = false) {
    const { source, blob_key: blobKey } = request;
    const blocks = await this.blocks.list(project.id, sessionId);
    if (blocks.length === 0) throw new NotFoundError();
    if (source === undefined) {
      const v2 = request.blob_v2 === 'true';
      // The times are in each block's name; a block stored before names held them is read (block-times.ts).
      const times = await Promise.all(blocks.map(async (block) => {
        const named = timesOfName(block.name); // null: a block with no timed event
        return isoTimes(named !== undefined ? named : blockTimes(await this.blocks.readBlock(project.id, sessionId, block.name)));
      }));
      const sources = blocks.map((block, i) => ({ source: v2 ? 'blob_v2' : 'blob', start_timestamp: times[i]!.start, end_timestamp: times[i]!.end, blob_key: v2 ? String(i) : block.name }));
      return { kind: 'sources' as const, body: { sources } };
    }
    if (source === 'blob_v2') {
      const range = blobRange(request, blocks, viaApiKey);
      return { kind: 'blob' as const, body: await readBlobRange(this.blocks, project.id, sessionId, blocks, range) };
    }
    if (source !== 'blob') throw new ValidationError(`Invalid source: ${source}`, 'source');
    if (!blobKey) throw new ValidationError('Must provide a snapshot file blob key', 'blob_key');
    if (!blocks.some((block) => block.name === blobKey)) throw new NotFoundError();
    return { kind: 'blob' as const, body: blobLines(await this.blocks.readBlockText(project.id, sessionId, blobKey)) };
  }

  /** Removes the session's blocks and summary rows (404 when the project has none). */
  async delete(principal: Principal, projectParam: string, sessionId: string): Promise<void> {
    const project = await this.access.project(principal, projectParam);
    const [row] = await this.summaries(project.id, { from: null, to: null, distinctIds: null, sessionIds: [sessionId], limit: 1, offset: 0 });
    const blocks = await this.blocks.list(project.id, sessionId);
    if (!row && blocks.length === 0) throw new NotFoundError();
    await this.store.command(
      `DELETE FROM ${this.ddl.db}.${this.ddl.storageName(TABLES.sessionReplayEvents)}${this.ddl.onCluster}
       WHERE team_id = {team:UInt64} AND session_id = {session:String}`,
      { team: project.id, session: sessionId },
      { lane: 'persons' },
    );
    await this.blocks.removeSession(project.id, sessionId);
  }

  private async summaries(
    teamId: number,
    filter: {
      from: number | null; to: number | null; distinctIds: string[] | null; sessionIds: string[] | null; limit: number; offset: number;
      orderBy?: string; predicates?: Array<{ expression: string; operator: string; value: number }>;
    },
  ): Promise<SummaryRow[]> {
    const where = ['team_id = {team:UInt64}'];
    const having: string[] = [];
    if (filter.sessionIds) where.push('session_id IN {sessions:Array(String)}');
    if (filter.distinctIds) having.push('distinct_id IN {distincts:Array(String)}');
    if (filter.from !== null) having.push('first_ms >= {from:Int64}');
    if (filter.to !== null) having.push('first_ms <= {to:Int64}');
    const predicateValues: Record<string, number> = {};
    (filter.predicates ?? []).forEach((predicate, i) => {
      having.push(`(${predicate.expression}) ${predicate.operator} {p${i}:Float64}`);
      predicateValues[`p${i}`] = predicate.value;
    });
    return this.store.query<SummaryRow>(
      `SELECT session_id, any(distinct_id) AS distinct_id,
         toUnixTimestamp64Milli(min(min_first_timestamp)) AS first_ms, toUnixTimestamp64Milli(max(max_last_timestamp)) AS last_ms,
         argMinMerge(first_url) AS start_url, sum(click_count) AS clicks, sum(keypress_count) AS keypresses,
         sum(mouse_activity_count) AS mouse, sum(active_milliseconds) AS active_ms,
         sum(console_log_count) AS logs, sum(console_warn_count) AS warns, sum(console_error_count) AS errors,
         argMinMerge(snapshot_source) AS source,
         -- PostHog's dateDiff('second', start, end) and whole active seconds.
         toInt64(toUnixTimestamp(max(max_last_timestamp))) - toInt64(toUnixTimestamp(min(min_first_timestamp))) AS duration,
         toInt64(round(sum(active_milliseconds) / 1000)) AS active_seconds
       FROM ${this.store.layout.database}.${TABLES.sessionReplayEvents}
       WHERE ${where.join(' AND ')}
       GROUP BY session_id
       ${having.length > 0 ? `HAVING ${having.join(' AND ')}` : ''}
       ORDER BY ${filter.orderBy ?? 'first_ms DESC'}, session_id
       LIMIT {limit:UInt64} OFFSET {offset:UInt64}`,
      {
        team: teamId,
        sessions: filter.sessionIds ?? [],
        distincts: filter.distinctIds ?? [],
        from: filter.from ?? 0,
        to: filter.to ?? 0,
        limit: filter.limit,
        offset: filter.offset,
        ...predicateValues,
      },
    );
  }

  /** The person behind each distinct id, where one is known (PostHog's MinimalPersonSerializer). */
  private async personsOf(teamId: number, distinctIds: readonly string[]): Promise<Map<string, ReturnType<typeof personView>>> {
    if (distinctIds.length === 0) return new Map();
    const mappings = await this.store.query<{ distinct_id: string; person_id: string }>(
      `SELECT distinct_id, toString(argMax(person_id, version)) AS person_id
       FROM ${this.store.layout.database}.${TABLES.personDistinctIds}
       WHERE team_id = {team:UInt64} AND distinct_id IN {ids:Array(String)}
       GROUP BY distinct_id HAVING argMax(is_deleted, version) = false`,
      { team: teamId, ids: [...new Set(distinctIds)] },
    );
    const persons = await personsById(this.executor.start(teamId), mappings.map((m) => m.person_id));
    const result = new Map<string, ReturnType<typeof personView>>();
    for (const mapping of mappings) {
      const person = persons.get(mapping.person_id);
      if (person) result.set(mapping.distinct_id, personView(person));
    }
    return result;
  }
}

function personView(person: PersonActor) {
  const name = ['email', 'name', 'username'].map((key) => person.properties[key]).find((value) => typeof value === 'string' && value !== '');
  return {
    id: person.id,
    name: (name as string | undefined) ?? person.distinct_ids[0] ?? person.id,
    distinct_ids: person.distinct_ids,
    properties: person.properties,
    created_at: person.created_at,
    uuid: person.id,
  };
}

function recordingView(row: SummaryRow, person: ReturnType<typeof personView> | undefined) {
  const first = Number(row.first_ms);
  const last = Number(row.last_ms);
  const duration = Number(row.duration);
  const active = Number(row.active_seconds);
  return {
    id: row.session_id,
    distinct_id: row.distinct_id,
    viewed: false,
    recording_duration: duration,
    active_seconds: active,
    inactive_seconds: duration - active,
    start_time: new Date(first).toISOString(),
    end_time: new Date(last).toISOString(),
    click_count: Number(row.clicks),
    keypress_count: Number(row.keypresses),
    mouse_activity_count: Number(row.mouse),
    console_log_count: Number(row.logs),
    console_warn_count: Number(row.warns),
    console_error_count: Number(row.errors),
    start_url: row.start_url ?? null,
    person: person ?? null,
    storage: 'object_storage',
    snapshot_source: row.source ?? 'web',
  };
}

function wholeNumber(raw: string | undefined): number | null {
  return raw !== undefined && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

/** `session_ids` as PostHog reads it: a JSON array of ids, or ids separated by commas. */
function sessionIdList(raw: string): string[] {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed)) return parsed.map(String);
  } catch {
    // not JSON: a comma-separated list
  }
  return raw.split(',').map((id) => id.trim()).filter((id) => id !== '');
}

const RELATIVE = /^-(\d+)([hdwmy])$/;
const UNIT_MS: Record<string, number> = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** The times the event store can compare (ClickHouse's DateTime64: 1900-01-01 to 2299-12-31). */
const EARLIEST_MS = Date.UTC(1900, 0, 1);
const LATEST_MS = Date.UTC(2300, 0, 1) - 1;

/**
 * An absolute date-time or PostHog's relative `-Nh/d/w/m/y`, in milliseconds. As PostHog's
 * relative_date_parse, hours count back from now and longer units start at that day's midnight (UTC).
 * A date that does not parse or falls outside what the store holds is a 400 (it was a NaN: a 500).
 */
function timeParam(raw: string, now: number, attr: string): number {
  const ms = parsedTime(raw, now);
  if (!(ms >= EARLIEST_MS && ms <= LATEST_MS)) throw new ValidationError(`Invalid date: ${raw}`, attr);
  return ms;
}

function parsedTime(raw: string, now: number): number {
  const relative = RELATIVE.exec(raw.trim());
  if (relative) {
    const amount = Number(relative[1]);
    const unit = relative[2]!;
    if (unit === 'h') return now - amount * UNIT_MS.h!;
    const date = new Date(unit in UNIT_MS ? now - amount * UNIT_MS[unit]! : now);
    if (unit === 'm') date.setUTCMonth(date.getUTCMonth() - amount);
    if (unit === 'y') date.setUTCFullYear(date.getUTCFullYear() - amount);
    return date.setUTCHours(0, 0, 0, 0);
  }
  return Date.parse(raw);
}
