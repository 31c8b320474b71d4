// One flush of the group commit: drops repeated uuids, attributes persons and groups, then writes
// person rows before the events that refer to them. Any failure forgets cached person state,
// because memory may then be ahead of the store.
import type { EventRow, EventsRepository } from '../../storage/events/events-repository.js';
import type { PersonsRepository, PersonWrites } from '../../storage/events/persons-repository.js';
import { formatMicros } from '../../storage/events/time.js';
import type { GroupProcessor } from './persons/group-processor.js';
import type { PersonProcessor } from './persons/person-processor.js';
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
     * Told, before the events are acknowledged, which projects had events stored and for which UTC
     * days (sets `ingested_event`, and marks cached results over those days as outdated).
     */
    private readonly onStored: (written: StoredDays[]) => Promise<void>,
  ) {}

  async write(items: readonly TeamEvents[]): Promise<void> {
    const writes: PersonWrites = { persons: [], distinctIds: [], overrides: [], groups: [], groupTypes: [] };
    const rows: EventRow[] = [];
    try {
      for (const [teamId, events] of byTeam(items)) {
        const fresh = await this.withoutRepeats(teamId, events);
        if (fresh.length === 0) continue;
        const groupKeys = await this.groups.process(teamId, fresh, writes);
        const personIds = await this.persons.process(teamId, fresh, writes);
        const createdAt = formatMicros(Date.now() * 1000);
        fresh.forEach((event, i) => rows.push(toRow(teamId, event, personIds[i]!, groupKeys[i]!, createdAt)));
      }
      await this.personsRepository.write(writes);
      await this.events.insert(rows);
    } catch (error) {
      this.persons.forget();
      this.groups.forget();
      throw error;
    }
    if (rows.length > 0) await this.onStored(storedDays(rows));
  }

  /** First write wins: a uuid already stored, or earlier in this batch, is dropped. */
  private async withoutRepeats(teamId: number, events: CapturedEvent[]): Promise<CapturedEvent[]> {
    const seen = new Set<string>();
    const unique = events.filter((e) => !seen.has(e.uuid) && seen.add(e.uuid));
    const stored = await this.events.existingUuids(teamId, [...seen]);
    return stored.size === 0 ? unique : unique.filter((e) => !stored.has(e.uuid));
  }
}

function storedDays(rows: readonly EventRow[]): StoredDays[] {
  const teams = new Map<number, Set<string>>();
  for (const row of rows) {
    const days = teams.get(row.team_id) ?? new Set<string>();
    days.add(row.timestamp.slice(0, 10));
    teams.set(row.team_id, days);
  }
  return [...teams].map(([teamId, days]) => ({ teamId, days: [...days] }));
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
    properties: JSON.stringify(properties),
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
