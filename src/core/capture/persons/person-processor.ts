// Attributes a batch of events to persons the way PostHog's ingestion does: a new distinct id gets
// a person; $identify, $create_alias and $merge_dangerously merge persons; $set, $set_once and
// $unset update properties in event order. It keeps recently used state in memory so a steady
// stream of known users costs no reads, and returns the rows to append before the events.
import { LRUCache } from 'lru-cache';
import type { DistinctIdRow, PersonRow, PersonsRepository, PersonWrites } from '../../../storage/events/persons-repository.js';
import { formatMicros } from '../../../storage/events/time.js';
import type { CapturedEvent } from '../types.js';
import { isIllegalMergeId } from './illegal-ids.js';
import { personUuid } from './person-uuid.js';
import { applyPersonUpdates } from './property-updates.js';

type Properties = Record<string, unknown>;

interface PersonState {
  id: string;
  properties: Properties;
  isIdentified: boolean;
  createdAtUs: number;
  /** Version of the last stored row; -1 for a person not stored yet. */
  version: number;
}

/**
 * A distinct id's person (null: known to have none) and the version of that mapping. A null person
 * with a stored version is a deleted one's id: its next person gets a new id (personUuid's reborn).
 */
interface Mapping {
  personId: string | null;
  version: number;
}

const MERGE_EVENTS: Record<string, string> = {
  $identify: '$anon_distinct_id',
  $create_alias: 'alias',
  $merge_dangerously: 'alias',
};

export interface PersonWarning {
  type: 'cannot_merge_with_illegal_distinct_id' | 'cannot_merge_already_identified';
  teamId: number;
  distinctIds: [string, string];
}

/** A person folded into another (the survivor). */
export interface PersonMerge {
  teamId: number;
  fromPersonId: string;
  intoPersonId: string;
}

/** The work of one team's slice of a batch: person ids per event and rows to write. */
class TeamBatch {
  readonly dirty = new Map<string, PersonState>();
  readonly deleted: PersonRow[] = [];
  readonly mappings = new Map<string, Mapping>();
  readonly overrides = new Map<string, Mapping>();
  readonly merges: PersonMerge[] = [];

  constructor(readonly teamId: number) {}
}

export class PersonProcessor {
  private readonly mappings: LRUCache<string, Mapping>;
  private readonly persons: LRUCache<string, PersonState>;

  constructor(
    private readonly repository: PersonsRepository,
    private readonly onWarning: (warning: PersonWarning) => void = () => {},
    cacheSize = 100_000,
  ) {
    this.mappings = new LRUCache({ max: cacheSize });
    this.persons = new LRUCache({ max: cacheSize });
  }

  /**
   * Person id of each event, in order, and the person rows to write first; `merges` receives the
   * stored persons merged away (what else refers to a person, e.g. flag overrides, follows them).
   */
  async process(teamId: number, events: readonly CapturedEvent[], writes: PersonWrites, merges: PersonMerge[] = []): Promise<string[]> {
    const batch = new TeamBatch(teamId);
    await this.prefetch(teamId, events);
    const personIds: string[] = [];
    for (const event of events) personIds.push(await this.processEvent(batch, event));
    this.collectWrites(batch, writes);
    merges.push(...batch.merges);
    return personIds;
  }

  /** Drops all cached state: after a failed write, memory may be ahead of the store. */
  forget(): void {
    this.mappings.clear();
    this.persons.clear();
  }

  private async processEvent(batch: TeamBatch, event: CapturedEvent): Promise<string> {
    const { teamId } = batch;
    if (event.properties.$process_person_profile === false) {
      const mapping = this.mapping(teamId, event.distinctId);
      return mapping?.personId ?? this.newPersonId(teamId, event.distinctId, mapping);
    }
    const mergeKey = MERGE_EVENTS[event.event];
    const other = mergeKey === undefined ? undefined : event.properties[mergeKey];
    if (other !== undefined && other !== null && String(other) !== '') {
      await this.merge(batch, String(other), event.distinctId, event);
    }
    await this.ensureLoaded(teamId, [event.distinctId]);
    let person = this.personOf(teamId, event.distinctId);
    if (!person) person = this.createPerson(batch, event.distinctId, event.timestampUs);
    const changed = applyPersonUpdates(person.properties, event.properties, event.located === true);
    const identifies = mergeKey !== undefined && !person.isIdentified;
    if (identifies) person.isIdentified = true;
    if (changed || identifies) batch.dirty.set(person.id, person);
    return person.id;
  }

  /** Folds `otherId` into `intoId` (the event's own distinct id), following PostHog's rules. */
  private async merge(batch: TeamBatch, otherId: string, intoId: string, event: CapturedEvent): Promise<void> {
    const { teamId } = batch;
    if (otherId === intoId) return;
    if (isIllegalMergeId(otherId) || isIllegalMergeId(intoId)) {
      this.onWarning({ type: 'cannot_merge_with_illegal_distinct_id', teamId, distinctIds: [otherId, intoId] });
      return;
    }
    await this.ensureLoaded(teamId, [otherId, intoId]);
    const otherPerson = this.personOf(teamId, otherId);
    const intoPerson = this.personOf(teamId, intoId);
    if (otherPerson && intoPerson) {
      if (otherPerson.id === intoPerson.id) return;
      if (otherPerson.isIdentified && event.event !== '$merge_dangerously') {
        this.onWarning({ type: 'cannot_merge_already_identified', teamId, distinctIds: [otherId, intoId] });
        return;
      }
      await this.mergePersons(batch, intoPerson, otherPerson);
    } else if (otherPerson) {
      this.attachWithHistory(batch, intoId, otherPerson);
    } else if (intoPerson) {
      this.attachWithHistory(batch, otherId, intoPerson);
    } else {
      const person = this.createPerson(batch, intoId, event.timestampUs);
      this.attachWithHistory(batch, otherId, person);
    }
  }

  /**
   * Attaches a distinct id that had no person. Its earlier events, if any, were personless
   * ($process_person_profile: false, posthog-js's identified_only default) and carry the id's own
   * derived person id, so an override moves them to the person, as PostHog's merge of a personless
   * distinct id does: the visitor's browsing before identify counts as that person's.
   */
  private attachWithHistory(batch: TeamBatch, distinctId: string, person: PersonState): void {
    this.attach(batch, distinctId, person);
    if (personUuid(batch.teamId, distinctId) !== person.id) batch.overrides.set(distinctId, batch.mappings.get(distinctId)!);
  }

  /** The survivor keeps its id and wins property conflicts; every distinct id of the other moves. */
  private async mergePersons(batch: TeamBatch, into: PersonState, other: PersonState): Promise<void> {
    const { teamId } = batch;
    into.properties = { ...other.properties, ...into.properties };
    into.createdAtUs = Math.min(into.createdAtUs, other.createdAtUs);
    batch.dirty.set(into.id, into);

    const moving = new Set<string>();
    for (const row of await this.repository.distinctIdsOfPersons(teamId, [other.id])) {
      const current = this.mapping(teamId, row.distinct_id);
      // The cache may know a newer mapping (from this batch); it wins over the stored one.
      if (!current || current.personId === other.id) moving.add(row.distinct_id);
    }
    for (const [distinctId, mapping] of batch.mappings) if (mapping.personId === other.id) moving.add(distinctId);
    for (const distinctId of moving) {
      this.attach(batch, distinctId, into);
      batch.overrides.set(distinctId, batch.mappings.get(distinctId)!);
    }

    batch.dirty.delete(other.id);
    this.persons.delete(key(teamId, other.id));
    if (other.version >= 0) batch.deleted.push(this.personRow(teamId, other, other.version + 1, true));
    // Told even for a person of this batch: an earlier merge in it may have given it overrides.
    batch.merges.push({ teamId, fromPersonId: other.id, intoPersonId: into.id });
  }

  private attach(batch: TeamBatch, distinctId: string, person: PersonState): void {
    const previous = this.mapping(batch.teamId, distinctId);
    const mapping = { personId: person.id, version: (previous?.version ?? -1) + 1 };
    this.mappings.set(key(batch.teamId, distinctId), mapping);
    batch.mappings.set(distinctId, mapping);
  }

  private createPerson(batch: TeamBatch, distinctId: string, timestampUs: number): PersonState {
    const person: PersonState = {
      id: this.newPersonId(batch.teamId, distinctId, this.mapping(batch.teamId, distinctId)),
      properties: {},
      isIdentified: false,
      createdAtUs: timestampUs,
      version: -1,
    };
    this.persons.set(key(batch.teamId, person.id), person);
    batch.dirty.set(person.id, person);
    this.attach(batch, distinctId, person);
    return person;
  }

  /** The id of a distinct id's first person, or of its next one after a deletion. */
  private newPersonId(teamId: number, distinctId: string, mapping: Mapping | undefined): string {
    return mapping && mapping.personId === null && mapping.version >= 0 ? personUuid(teamId, distinctId, mapping.version) : personUuid(teamId, distinctId);
  }

  private personOf(teamId: number, distinctId: string): PersonState | undefined {
    const personId = this.mapping(teamId, distinctId)?.personId;
    return personId ? this.persons.get(key(teamId, personId)) : undefined;
  }

  private mapping(teamId: number, distinctId: string): Mapping | undefined {
    return this.mappings.get(key(teamId, distinctId));
  }

  /** Reads, in two queries, the state of every distinct id in the batch that is not cached. */
  private async prefetch(teamId: number, events: readonly CapturedEvent[]): Promise<void> {
    const ids = new Set<string>();
    for (const event of events) {
      ids.add(event.distinctId);
      const mergeKey = MERGE_EVENTS[event.event];
      const other = mergeKey === undefined ? undefined : event.properties[mergeKey];
      if (other !== undefined && other !== null) ids.add(String(other));
    }
    await this.ensureLoaded(teamId, [...ids]);
  }

  private async ensureLoaded(teamId: number, distinctIds: readonly string[]): Promise<void> {
    // A mapping whose person fell out of the cache counts as missing: both are read again.
    const missing = distinctIds.filter((id) => {
      const personId = this.mappings.get(key(teamId, id))?.personId;
      return personId === undefined || (personId !== null && !this.persons.has(key(teamId, personId)));
    });
    if (missing.length === 0) return;
    const rows: DistinctIdRow[] = await this.repository.distinctIdsWithTombstones(teamId, missing);
    const found = new Map(rows.map((row) => [row.distinct_id, row]));
    const personIds = [...new Set(rows.filter((row) => !row.is_deleted).map((row) => row.person_id))].filter((id) => !this.persons.has(key(teamId, id)));
    for (const person of await this.repository.persons(teamId, personIds)) {
      this.persons.set(key(teamId, person.id), {
        id: person.id,
        properties: parseProperties(person.properties),
        isIdentified: Boolean(person.is_identified),
        createdAtUs: Date.parse(`${person.created_at.replace(' ', 'T')}Z`) * 1000,
        version: person.version,
      });
    }
    for (const id of missing) {
      const row = found.get(id);
      const known = row && !row.is_deleted && this.persons.has(key(teamId, row.person_id));
      this.mappings.set(key(teamId, id), known ? { personId: row.person_id, version: row.version } : { personId: null, version: row?.version ?? -1 });
    }
  }

  private collectWrites(batch: TeamBatch, writes: PersonWrites): void {
    const { teamId } = batch;
    for (const person of batch.dirty.values()) {
      person.version += 1;
      writes.persons.push(this.personRow(teamId, person, person.version, false));
    }
    writes.persons.push(...batch.deleted);
    for (const [distinctId, mapping] of batch.mappings) {
      writes.distinctIds.push({ team_id: teamId, distinct_id: distinctId, person_id: mapping.personId!, version: mapping.version, is_deleted: false });
    }
    for (const [distinctId, mapping] of batch.overrides) {
      writes.overrides.push({ team_id: teamId, distinct_id: distinctId, person_id: mapping.personId!, version: mapping.version, is_deleted: false });
    }
  }

  private personRow(teamId: number, person: PersonState, version: number, isDeleted: boolean): PersonRow {
    return {
      id: person.id,
      team_id: teamId,
      properties: JSON.stringify(person.properties),
      is_identified: person.isIdentified,
      created_at: formatMicros(person.createdAtUs).slice(0, 23),
      version,
      is_deleted: isDeleted,
    };
  }
}

function key(teamId: number, id: string): string {
  return `${teamId}\u0000${id}`;
}

function parseProperties(text: string): Properties {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Properties) : {};
  } catch {
    return {};
  }
}
