// Who a /flags/ request is about, with everything evaluation needs of them (reference
// feature-flags.md 2.5, 2.8, 2.10): the person's stored properties with the request's over them,
// the static cohorts they are in, the named groups' properties, and experience continuity's hash
// key overrides.
//
// Persons and groups are kept in a cache: a cold person read
// costs an event-store statement (several ms; concurrent cold reads share one, TickBatcher)
// against well under 1 ms for a whole cached request. Capture is the only writer of persons and
// groups, and it runs in one process (the capture writer lease): in that process every person and
// distinct-id row capture writes goes into the cache as the stored state (rememberWritten), so a
// person's first /flags/ request after capture made them reads nothing; the groups it writes are
// forgotten. A request for a project with acknowledged events not yet stored first waits for them,
// so a person identified a moment ago is answered with their `$set` properties. Distinct ids and
// persons are cached apart (a merge moves ids to the survivor; a deleted person answers as nobody).
// The process holding the capture writer lease keeps entries until they are written
// (FLAG_SUBJECT_WRITER_TTL_MS only bounds a missed case); any other process reads them again after
// FLAG_SUBJECT_TTL_MS. After a restart, the writer's process fills the cache in the background
// (warm-up.ts); warm entries are stamped as a read and age as read entries do: 10 minutes in the
// writer's process (where capture's writes make them stale at once), and no warm-up elsewhere.
// Static cohort membership is read when a flag names a static cohort and kept
// with the flag definitions it was read with (a membership change bumps the cohort's version,
// hence new definitions).
import { LRUCache } from 'lru-cache';
import type { FeatureFlagsRepository } from '../../../storage/meta/repositories/feature-flags.js';
import type { ProjectFlags } from '../definitions-cache.js';
import type { FlagSubject } from '../evaluation/index.js';
import type { PersonWrites } from '../../../storage/events/persons-repository.js';
import { parseProperties, type FlagPersonReads, type StoredPerson, type WarmPerson } from './person-reads.js';
import { TickBatcher } from './tick-batcher.js';
import { FlagSubjectWarmUp, type WarmTarget } from './warm-up.js';

/**
 * How stale another process's answer may be: capture runs in one process, and only that one is
 * told what it wrote; a /flags/ server elsewhere reads a changed person again after this long.
 * Ten seconds keeps a returning visitor's requests (an SDK asks again on page load) mostly
 * cached, while a property set on one page shows on one of the next.
 */
export const FLAG_SUBJECT_TTL_MS = 10_000;
/** In the capture writer's process, where every write is seen: a safety net only. */
export const FLAG_SUBJECT_WRITER_TTL_MS = 10 * 60_000;

export interface SubjectRequest {
  projectId: number;
  distinctId: string;
  anonDistinctId: string | null;
  deviceId: string | null;
  /** Group type name -> key. */
  groups: Record<string, string>;
  personProperties: Record<string, unknown>;
  groupProperties: Record<string, Record<string, unknown>>;
}

export interface LoadedSubject {
  /** What the evaluator reads (person properties merged; `$initial_` fill-in is the evaluator's). */
  subject: FlagSubject;
  personId: string | null;
  /** The project's group types: index -> name. */
  groupTypeMapping: ReadonlyMap<number, string>;
}

/** A distinct id's person (null: none, or deleted) as read or as capture wrote it. */
interface CachedId {
  personId: string | null;
  stamp: Stamp;
}

/** A person as read or as capture wrote it (then with its properties as written, parsed when asked). */
interface CachedPerson {
  id: string;
  /** Null for a deleted person. */
  properties: Record<string, unknown> | string | null;
  /** Null when not read (no flag of the project named a static cohort then, or written by capture). */
  staticCohorts: ReadonlySet<number> | null;
  /** The definitions the cohorts were read with: new definitions (a cohort changed) make them stale. */
  definitions: ProjectFlags | null;
  stamp: Stamp;
  /** Roughly its memory, for the cache's byte bound. */
  size: number;
}

interface CachedGroup {
  properties: Record<string, unknown>;
  stamp: Stamp;
}

/** When a cached entry was read: writes after that make it stale. */
interface Stamp {
  /** The write sequence number when the read started. */
  seq: number;
  /** The project's generation then (grows when a write could not be remembered precisely). */
  generation: number;
  /** Date.now() then: outside the writer's process, entries live FLAG_SUBJECT_TTL_MS. */
  at: number;
}

interface ColdPerson {
  person: StoredPerson | null;
  staticCohorts: ReadonlySet<number> | null;
}

const NOBODY: ColdPerson = { person: null, staticCohorts: null };

/** Bounds of the subject cache: entries, and the persons' properties by (UTF-16) length. */
export const FLAG_SUBJECT_CACHE_ENTRIES = 100_000;
const FLAG_PERSON_CACHE_CHARS = 128 * 1024 * 1024;
/** What an entry costs besides its properties. */
const ENTRY_OVERHEAD = 200;

export interface CaptureWatch {
  /** Whether acknowledged events of the project are not in the event store yet. */
  pending(projectId: number): boolean;
  /** Resolves once what was acknowledged before the call is stored (or after a bounded wait). */
  settled(): Promise<void>;
  /** Whether this process holds the capture writer lease (so every person write is seen here). */
  writesHere(): boolean;
}

const NO_COHORTS: ReadonlySet<number> = new Set();

export class FlagSubjectLoader {
  /** `projectId:distinctId` -> person id. */
  private readonly ids = new LRUCache<string, CachedId>({ max: FLAG_SUBJECT_CACHE_ENTRIES, ttl: FLAG_SUBJECT_WRITER_TTL_MS });
  /** `projectId:personId` -> person. */
  private readonly people = new LRUCache<string, CachedPerson>({
    max: FLAG_SUBJECT_CACHE_ENTRIES,
    maxSize: FLAG_PERSON_CACHE_CHARS,
    sizeCalculation: (entry) => entry.size,
    ttl: FLAG_SUBJECT_WRITER_TTL_MS,
  });
  private readonly groupRows = new LRUCache<string, CachedGroup>({ max: 50_000, ttl: FLAG_SUBJECT_WRITER_TTL_MS });
  /** Grows with each capture write. */
  private seq = 0;
  /**
   * What capture wrote in the last TTL (`d:`, `p:`, `g:` keys with the project id), with the write's
   * sequence number: older cache entries of those keys are stale. A mark pushed out before its
   * TTL takes its whole project with it (the generation), so no write is ever forgotten.
   */
  private readonly written = new LRUCache<string, { seq: number; projectId: number }>({
    max: 200_000,
    ttl: FLAG_SUBJECT_WRITER_TTL_MS,
    dispose: (mark, _key, reason) => {
      if (reason === 'evict') this.generations.set(mark.projectId, this.generationOf(mark.projectId) + 1);
    },
  });
  private readonly generations = new Map<number, number>();
  private readonly groupTypes = new LRUCache<number, { mapping: Map<string, number> }>({ max: 10_000, ttl: FLAG_SUBJECT_TTL_MS });
  private readonly coldPersons = new TickBatcher<ColdPerson>(NOBODY);
  private readonly coldGroups = new TickBatcher<Record<string, unknown>>({});
  private readonly coldCohorts = new TickBatcher<number[]>([]);
  /** Fills the cache in the background once a project's flags need persons (warm-up.ts). */
  readonly warmUp: FlagSubjectWarmUp;

  constructor(
    private readonly reads: FlagPersonReads,
    private readonly flags: FeatureFlagsRepository,
    private readonly capture: CaptureWatch,
    onBackgroundError?: (error: unknown) => void,
  ) {
    this.warmUp = new FlagSubjectWarmUp(reads, this.warmTarget(), onBackgroundError);
  }

  /**
   * Warm entries are stamped like a read that started when their chunk's statement did: capture's
   * writes after that make them stale, and they age as read entries do (the LRU's writer TTL).
   */
  private warmTarget(): WarmTarget {
    return {
      readStarted: (projectId) => this.stampOf(projectId),
      hasRoom: (persons) =>
        this.ids.size + persons <= FLAG_SUBJECT_CACHE_ENTRIES &&
        this.people.size + persons <= FLAG_SUBJECT_CACHE_ENTRIES &&
        this.people.calculatedSize < FLAG_PERSON_CACHE_CHARS * 0.9,
      remember: (projectId, started, persons) => this.rememberWarm(projectId, started as Stamp, persons),
      writesHere: () => this.capture.writesHere(),
    };
  }

  /** Caches what the warm-up read, keeping any entry already there (as new, or newer) and any key written since. */
  private rememberWarm(projectId: number, stamp: Stamp, persons: readonly WarmPerson[]): void {
    const writtenSince = (key: string) => (this.written.get(key)?.seq ?? 0) > stamp.seq;
    if (stamp.generation !== this.generationOf(projectId)) return;
    for (const person of persons) {
      const personKey = `${projectId}:${person.id}`;
      if (!this.people.has(personKey) && !writtenSince(`p:${personKey}`)) {
        const size = ENTRY_OVERHEAD + person.properties.length;
        this.people.set(personKey, { id: person.id, properties: person.properties, staticCohorts: null, definitions: null, stamp, size });
      }
      for (const distinctId of person.distinctIds) {
        const idKey = `${projectId}:${distinctId}`;
        if (!this.ids.has(idKey) && !writtenSince(`d:${idKey}`)) this.ids.set(idKey, { personId: person.id, stamp });
      }
    }
  }

  /**
   * Capture stored these rows in this process: what was read of them before is stale, and the
   * persons and distinct ids written are cached as written (the newest state: capture writes one
   * batch at a time, in order). A row stores the person whole, so no read is needed.
   */
  rememberWritten(writes: PersonWrites): void {
    const seq = ++this.seq;
    const mark = (key: string, projectId: number) => this.written.set(key, { seq, projectId });
    for (const row of [...writes.distinctIds, ...writes.overrides]) mark(`d:${row.team_id}:${row.distinct_id}`, row.team_id);
    for (const row of writes.persons) mark(`p:${row.team_id}:${row.id}`, row.team_id);
    for (const row of writes.groups) mark(`g:${row.team_id}:${row.group_type_index}:${row.group_key}`, row.team_id);
    for (const row of writes.groupTypes) this.groupTypes.delete(row.team_id);
    const at = Date.now();
    const stampOf = (projectId: number): Stamp => ({ seq, generation: this.generationOf(projectId), at });
    for (const row of writes.distinctIds) {
      this.ids.set(`${row.team_id}:${row.distinct_id}`, { personId: row.is_deleted ? null : row.person_id, stamp: stampOf(row.team_id) });
    }
    for (const row of writes.persons) {
      const properties = row.is_deleted ? null : row.properties;
      this.people.set(`${row.team_id}:${row.id}`, {
        id: row.id, properties, staticCohorts: null, definitions: null, stamp: stampOf(row.team_id), size: ENTRY_OVERHEAD + (properties?.length ?? 0),
      });
    }
  }

  private generationOf(projectId: number): number {
    return this.generations.get(projectId) ?? 0;
  }

  private stampOf(projectId: number): Stamp {
    return { seq: this.seq, generation: this.generationOf(projectId), at: Date.now() };
  }

  /** Whether a write of any of these keys came after the stamp. */
  private isStale(projectId: number, stamp: Stamp, keys: readonly string[]): boolean {
    if (stamp.generation !== this.generationOf(projectId)) return true;
    if (!this.capture.writesHere() && Date.now() - stamp.at > FLAG_SUBJECT_TTL_MS) return true;
    if (stamp.seq === this.seq) return false;
    return keys.some((key) => (this.written.get(key)?.seq ?? 0) > stamp.seq);
  }

  /**
   * @param definitions the project's flags (which cohorts are static, which keys need continuity)
   * @param continuityKeys keys of the flags evaluated that keep experience continuity
   */
  async load(request: SubjectRequest, definitions: ProjectFlags, continuityKeys: readonly string[]): Promise<LoadedSubject> {
    if (this.capture.pending(request.projectId)) await this.capture.settled();
    const { projectId } = request;
    this.warmUp.consider(projectId, definitions);
    const needsStaticCohorts = [...definitions.cohorts.values()].some((c) => c.definition.isStatic);
    const cached = await this.person(projectId, request.distinctId, definitions, needsStaticCohorts);

    const personProperties = { ...(cached.person?.properties ?? {}), ...request.personProperties };
    const typeNames = Object.keys(request.groups);
    const mapping = typeNames.length > 0 ? await this.groupTypeMapping(projectId) : new Map<string, number>();
    const groupProperties: Record<string, Record<string, unknown>> = {};
    for (const typeName of typeNames) {
      const index = mapping.get(typeName);
      // A type capture has not numbered has no stored properties (and no flag can name it).
      const stored = index === undefined ? {} : await this.group(projectId, index, request.groups[typeName]!);
      groupProperties[typeName] = { ...stored, ...(request.groupProperties[typeName] ?? {}) };
    }
    const overrides = new Map<string, string>();
    if (continuityKeys.length > 0 && cached.person) {
      for (const row of await this.flags.hashKeyOverridesOf(projectId, [cached.person.id])) overrides.set(row.feature_flag_key, row.hash_key);
    }
    const anon = request.anonDistinctId;
    return {
      subject: {
        distinctId: request.distinctId,
        deviceId: request.deviceId,
        personProperties,
        groups: request.groups,
        groupProperties,
        // Continuity flags: a stored override, else the request's anonymous id (reference 2.10).
        hashKeyOverride: (flagKey) => overrides.get(flagKey) ?? anon ?? undefined,
        staticCohortIds: cached.staticCohorts ?? NO_COHORTS,
      },
      personId: cached.person?.id ?? null,
      groupTypeMapping: new Map([...mapping].map(([name, index]) => [index, name])),
    };
  }

  /**
   * Experience continuity (reference 2.10): for each of these flag keys that neither person has an
   * override for, bucket both persons (of `distinctId` and `anonDistinctId`) by the anonymous id.
   * Existing overrides win; a distinct id without a person gets none.
   */
  async writeHashKeyOverrides(projectId: number, distinctId: string, anonDistinctId: string, continuityKeys: readonly string[]): Promise<void> {
    if (continuityKeys.length === 0) return;
    // The $identify that merged the two ids may have been acknowledged a moment ago.
    if (this.capture.pending(projectId)) await this.capture.settled();
    const personIds = await this.reads.personIdsOf(projectId, [distinctId, anonDistinctId]);
    if (personIds.length === 0) return;
    const existing = await this.flags.hashKeyOverridesOf(projectId, personIds);
    const covered = new Set(existing.map((o) => o.feature_flag_key));
    const missing = continuityKeys.filter((key) => !covered.has(key));
    await this.flags.insertHashKeyOverridesIfAbsent(
      projectId,
      personIds.flatMap((person_id) => missing.map((feature_flag_key) => ({ person_id, feature_flag_key, hash_key: anonDistinctId }))),
    );
  }

  private async person(projectId: number, distinctId: string, definitions: ProjectFlags, needsStaticCohorts: boolean): Promise<ColdPerson> {
    const idKey = `${projectId}:${distinctId}`;
    const id = this.ids.get(idKey);
    if (id && !this.isStale(projectId, id.stamp, [`d:${idKey}`])) {
      if (id.personId === null) return NOBODY;
      const personKey = `${projectId}:${id.personId}`;
      const hit = this.people.get(personKey);
      if (hit && !this.isStale(projectId, hit.stamp, [`p:${personKey}`])) {
        const person = storedPerson(hit);
        if (!person) return NOBODY;
        if (!needsStaticCohorts) return { person, staticCohorts: hit.staticCohorts };
        if (hit.staticCohorts !== null && hit.definitions === definitions) return { person, staticCohorts: hit.staticCohorts };
        // Only the person's static cohorts are missing (or from older definitions): read those alone.
        const cohorts = new Set(await this.coldCohorts.load(String(projectId), person.id, (ids) => this.reads.staticCohortsOf(projectId, ids)));
        const current = this.people.get(personKey);
        if (current === hit) this.people.set(personKey, { ...hit, staticCohorts: cohorts, definitions });
        return { person, staticCohorts: cohorts };
      }
    }
    const stamp = this.stampOf(projectId);
    const cold = await this.coldPersons.load(`${projectId}:${needsStaticCohorts}`, distinctId, (ids) => this.readPersons(projectId, ids, needsStaticCohorts));
    // Capture may have written this id or person while the read ran: its entry is newer, keep it.
    const newer = (entry: { stamp: Stamp } | undefined) => entry !== undefined && entry.stamp.seq > stamp.seq;
    if (!newer(this.ids.get(idKey))) this.ids.set(idKey, { personId: cold.person?.id ?? null, stamp });
    if (cold.person) {
      const personKey = `${projectId}:${cold.person.id}`;
      if (!newer(this.people.get(personKey))) {
        const size = ENTRY_OVERHEAD + JSON.stringify(cold.person.properties).length;
        this.people.set(personKey, { id: cold.person.id, properties: cold.person.properties, staticCohorts: cold.staticCohorts, definitions, stamp, size });
      }
    }
    return cold;
  }

  /** One batch of cold persons, with their static cohorts when some flag names one. */
  private async readPersons(projectId: number, distinctIds: readonly string[], needsStaticCohorts: boolean): Promise<Map<string, ColdPerson>> {
    const persons = await this.reads.personsOf(projectId, distinctIds);
    const cohorts = needsStaticCohorts ? await this.reads.staticCohortsOf(projectId, [...new Set([...persons.values()].map((p) => p.id))]) : null;
    const answer = new Map<string, ColdPerson>();
    for (const [distinctId, person] of persons) {
      answer.set(distinctId, { person, staticCohorts: cohorts ? new Set(cohorts.get(person.id) ?? []) : null });
    }
    return answer;
  }

  private async group(projectId: number, index: number, key: string): Promise<Record<string, unknown>> {
    const cacheKey = `${projectId}:${index}:${key}`;
    const hit = this.groupRows.get(cacheKey);
    if (hit && !this.isStale(projectId, hit.stamp, [`g:${cacheKey}`])) return hit.properties;
    const stamp = this.stampOf(projectId);
    const properties = await this.coldGroups.load(`${projectId}:${index}`, key, (keys) => this.reads.groupProperties(projectId, index, keys));
    this.groupRows.set(cacheKey, { properties, stamp });
    return properties;
  }

  /** The project's group types, index -> name, as local evaluation sends them (cached as for /flags/). */
  async groupTypeNames(projectId: number): Promise<Record<string, string>> {
    if (this.capture.pending(projectId)) await this.capture.settled();
    const mapping = await this.groupTypeMapping(projectId);
    return Object.fromEntries([...mapping].map(([name, index]) => [String(index), name]));
  }

  private async groupTypeMapping(projectId: number): Promise<Map<string, number>> {
    const hit = this.groupTypes.get(projectId);
    if (hit) return hit.mapping;
    const mapping = await this.reads.groupTypes(projectId);
    this.groupTypes.set(projectId, { mapping });
    return mapping;
  }
}

/** The cached person as evaluation reads it (properties capture wrote are parsed once, when first asked). */
function storedPerson(entry: CachedPerson): StoredPerson | null {
  if (entry.properties === null) return null;
  if (typeof entry.properties === 'string') entry.properties = parseProperties(entry.properties);
  return { id: entry.id, properties: entry.properties };
}
