// One write of the inserter behind the capture log: attributes persons and groups, inserts the events whose uuids
// are new, then writes the person and group rows, then marks cached results over those days as
// outdated. The events go first so that a refused insert leaves no trace: persons never get ahead
// of the events they come from. Persons are processed for repeated events too (a re-sent event
// re-applies what it says, as in PostHog, where nothing is de-duplicated), so a write whose
// person rows failed after its events were stored catches up when the inserter retries it. Any
// failure forgets cached person state, because memory may then be ahead of the store. Person
// merges are told once their rows are written (metadata that follows a person, such as flag
// overrides, moves then); that step is bounded and cannot fail a write.
import type { EventRow, EventsRepository } from '../../storage/events/events-repository.js';
import type { PersonsRepository, PersonWrites } from '../../storage/events/persons-repository.js';
import { formatMicros } from '../../storage/events/time.js';
import { InsertRefusedError } from '../../storage/events/write-failure.js';
import type { GroupProcessor } from './persons/group-processor.js';
import type { PersonMerge, PersonProcessor } from './persons/person-processor.js';
import type { CapturedEvent } from './types.js';

export interface TeamEvents {
  teamId: number;
  events: CapturedEvent[];
}

export interface StoredDays {
  teamId: number;
  /** yyyy-mm-dd, UTC. */
  days: string[];
}

export class EventWriter {
  constructor(
    private readonly events: EventsRepository,
    private readonly personsRepository: PersonsRepository,
    private readonly persons: PersonProcessor,
    private readonly groups: GroupProcessor,
    /**
     * Told, as the last step of a write, which projects had events stored and for which UTC days
     * (sets `ingested_event`, and marks cached results over those days as outdated), and which
     * person, distinct id and group rows were written (their cached copies are stale).
     */
    private readonly onStored: (written: StoredDays[], writes: PersonWrites) => Promise<void>,
    /** Told of the persons merged in a write, after its person rows; must not throw. */
    private readonly onPersonsMerged: (merges: PersonMerge[]) => Promise<void> = async () => {},
    /**
     * Asked before each write: true when persons were deleted elsewhere (another process sharing
     * the stores) since it last said so, so cached person state must be read again. Must not throw.
     */
    private readonly personsDeletedElsewhere: () => Promise<boolean> = async () => false,
  ) {}

  /** Writes and `between` work run one at a time, in the order asked. */
  private turn: Promise<unknown> = Promise.resolve();

  write(items: readonly TeamEvents[]): Promise<void> {
    return this.inTurn(() => this.writeNow(items));
  }

  /**
   * Runs `work` while no write runs (a person deletion), then forgets cached person state: the
   * next write reads what `work` stored instead of what memory held before it.
   */
  between<T>(work: () => Promise<T>): Promise<T> {
    return this.inTurn(async () => {
      try {
        return await work();
      } finally {
        this.forget();
      }
    });
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.turn.then(work);
    this.turn = run.catch(() => {});
    return run;
  }

  private async writeNow(items: readonly TeamEvents[]): Promise<void> {
    if (await this.personsDeletedElsewhere()) this.forget();
    const writes: PersonWrites = { persons: [], distinctIds: [], overrides: [], groups: [], groupTypes: [] };
    const rows: EventRow[] = [];
    const days: StoredDays[] = [];
    const merges: PersonMerge[] = [];
    const repeats: { teamId: number; uuids: string[]; days: string[] }[] = [];
    try {
      for (const [teamId, events] of byTeam(items)) {
        // First write wins: a uuid earlier in this batch is dropped here, a stored one below.
        const seen = new Set<string>();
        const unique = events.filter((e) => !seen.has(e.uuid) && seen.add(e.uuid));
        const stored = await this.events.existingUuids(teamId, [...seen]);
        const groupKeys = await this.groups.process(teamId, unique, writes);
        const personIds = await this.persons.process(teamId, unique, writes, merges);
        const createdAt = formatMicros(Date.now() * 1000);
        unique.forEach((event, i) => {
          if (!stored.has(event.uuid)) rows.push(toRow(teamId, event, personIds[i]!, groupKeys[i]!, createdAt));
        });
        const repeated = unique.filter((event) => stored.has(event.uuid) && hasSession(event));
        if (repeated.length > 0) repeats.push({ teamId, uuids: repeated.map((event) => event.uuid), days: utcDays(repeated) });
        days.push({ teamId, days: utcDays(unique) });
      }
      await this.events.insert(rows).catch((error: unknown) => {
        throw new InsertRefusedError(error);
      });
      // Repeats in a session: their session may have missed them (a failed write before this retry).
      // The events are stored by now, so a failure here is the store's: the whole write is retried.
      for (const { teamId, uuids, days: repeatDays } of repeats) {
        await this.events.restoreSessions(teamId, uuids, repeatDays).catch((error: unknown) => {
          throw new IncompleteWriteError(error);
        });
      }
    } catch (error) {
      this.forget();
      throw error;
    }
    try {
      await withRetries(() => this.personsRepository.write(writes));
      if (merges.length > 0) await tellMerged(this.onPersonsMerged(merges));
      // Repeats are marked too: a retry of a request whose marks failed marks them now.
      await withRetries(() => this.onStored(days, writes));
    } catch (error) {
      this.forget();
      throw new IncompleteWriteError(error);
    }
  }

  private forget(): void {
    this.persons.forget();
    this.groups.forget();
  }
}

/**
 * The events were stored, but their person rows or cache marks were not: the store's fault, never
 * the content's; the inserter writes the same records again (the retry completes the work).
 */
export class IncompleteWriteError extends Error {
  constructor(cause: unknown) {
    super('events were stored, but their persons or cache marks were not', { cause });
    this.name = 'IncompleteWriteError';
  }
}

/** How long a write waits for what follows person merges before going on without it. */
const MERGE_HOOK_WAIT_MS = 2_000;

/** Waits for the merge hook at most MERGE_HOOK_WAIT_MS: capture never stalls on it. */
async function tellMerged(hook: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, MERGE_HOOK_WAIT_MS);
    timer.unref();
  });
  await Promise.race([hook.catch(() => {}), waited]);
  clearTimeout(timer);
}

/** A write that failed is tried twice more (after 50 and 200 ms) before the flush gives up. */
async function withRetries(write: () => Promise<void>): Promise<void> {
  for (const pauseMs of [50, 200]) {
    try {
      return await write();
    } catch {
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
  await write();
}

const hasSession = (event: CapturedEvent) => typeof event.properties.$session_id === 'string' && event.properties.$session_id !== '';

function utcDays(events: readonly CapturedEvent[]): string[] {
  return [...new Set(events.map((event) => formatMicros(event.timestampUs).slice(0, 10)))];
}

function byTeam(items: readonly TeamEvents[]): Map<number, CapturedEvent[]> {
  const teams = new Map<number, CapturedEvent[]>();
  for (const { teamId, events } of items) {
    const list = teams.get(teamId);
    if (list) list.push(...events);
    else teams.set(teamId, [...events]);
  }
  return teams;
}

function toRow(teamId: number, event: CapturedEvent, personId: string, groupKeys: string[], createdAt: string): EventRow {
  const { properties } = event;
  return {
    uuid: event.uuid,
    team_id: teamId,
    event: event.event,
    distinct_id: event.distinctId,
    person_id: personId,
    properties,
    timestamp: formatMicros(event.timestampUs),
    created_at: createdAt,
    $session_id: typeof properties.$session_id === 'string' ? properties.$session_id : '',
    $group_0: groupKeys[0] ?? '',
    $group_1: groupKeys[1] ?? '',
    $group_2: groupKeys[2] ?? '',
    $group_3: groupKeys[3] ?? '',
    $group_4: groupKeys[4] ?? '',
    elements_chain: typeof properties.$elements_chain === 'string' ? properties.$elements_chain : '',
    historical_migration: event.historicalMigration,
  };
}
