// Who a /flags/ request is about, with everything evaluation needs of them (reference
// feature-flags.md 2.5, 2.8, 2.10): the person's stored properties with the request's over them,
// the static cohorts they are in, the named groups' properties, and experience continuity's hash
// key overrides.
//
// Persons and groups are kept in a short-lived cache (FLAG_SUBJECT_TTL_MS): a cold person read
// costs an event-store statement (several ms) against about 1 ms for a whole cached request. Capture is the only writer of persons and groups, and
// it runs in one process (the capture writer lease): its writes forget the project's entries in
// that process (forgetProjects), and a request for a project with acknowledged events not yet
// stored first waits for them, so a person identified a moment ago is read with their `$set`
// properties. Other processes see a change within the TTL. Static cohort membership is dropped
// with the flag definitions (a membership change bumps the cohort's version, hence the epoch).
import { LRUCache } from 'lru-cache';
import type { FeatureFlagsRepository } from '../../../storage/meta/repositories/feature-flags.js';
import type { ProjectFlags } from '../definitions-cache.js';
import type { FlagSubject } from '../evaluation/index.js';
import type { FlagPersonReads, StoredPerson } from './person-reads.js';

export const FLAG_SUBJECT_TTL_MS = 10_000;

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

interface CachedPerson {
  person: StoredPerson | null;
  staticCohorts: ReadonlySet<number> | null;
  /** The definitions it was read with: new definitions (a cohort changed) make it stale. */
  definitions: ProjectFlags;
  /** The project's write generation when it was read. */
  generation: number;
}

export interface CaptureWatch {
  /** Whether acknowledged events of the project are not in the event store yet. */
  pending(projectId: number): boolean;
  /** Resolves once what was acknowledged before the call is stored (or after a bounded wait). */
  settled(): Promise<void>;
}

const NO_COHORTS: ReadonlySet<number> = new Set();

export class FlagSubjectLoader {
  private readonly persons = new LRUCache<string, CachedPerson>({ max: 100_000, ttl: FLAG_SUBJECT_TTL_MS });
  private readonly groupRows = new LRUCache<string, { properties: Record<string, unknown>; generation: number }>({ max: 50_000, ttl: FLAG_SUBJECT_TTL_MS });
  /** Per project, grows with each capture write: entries read under an older one are stale (O(1) to forget a project). */
  private readonly generations = new Map<number, number>();
  private readonly groupTypes = new LRUCache<number, { mapping: Map<string, number> }>({ max: 10_000, ttl: FLAG_SUBJECT_TTL_MS });

  constructor(
    private readonly reads: FlagPersonReads,
    private readonly flags: FeatureFlagsRepository,
    private readonly capture: CaptureWatch,
  ) {}

  /** Capture stored persons or groups of these projects in this process. */
  forgetProjects(projectIds: readonly number[]): void {
    for (const id of projectIds) {
      this.generations.set(id, this.generationOf(id) + 1);
      this.groupTypes.delete(id);
    }
  }

  private generationOf(projectId: number): number {
    return this.generations.get(projectId) ?? 0;
  }

  /**
   * @param definitions the project's flags (which cohorts are static, which keys need continuity)
   * @param continuityKeys keys of the flags evaluated that keep experience continuity
   */
  async load(request: SubjectRequest, definitions: ProjectFlags, continuityKeys: readonly string[]): Promise<LoadedSubject> {
    if (this.capture.pending(request.projectId)) await this.capture.settled();
    const { projectId } = request;
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

  private async person(projectId: number, distinctId: string, definitions: ProjectFlags, needsStaticCohorts: boolean): Promise<CachedPerson> {
    const cacheKey = `${projectId}:${distinctId}`;
    const generation = this.generationOf(projectId);
    const hit = this.persons.get(cacheKey);
    if (hit && hit.definitions === definitions && hit.generation === generation) return hit;
    const person = await this.reads.personOf(projectId, distinctId);
    const staticCohorts = person && needsStaticCohorts ? new Set(await this.reads.staticCohortsOf(projectId, person.id)) : null;
    const entry = { person, staticCohorts, definitions, generation };
    this.persons.set(cacheKey, entry);
    return entry;
  }

  private async group(projectId: number, index: number, key: string): Promise<Record<string, unknown>> {
    const cacheKey = `${projectId}:${index}:${key}`;
    const generation = this.generationOf(projectId);
    const hit = this.groupRows.get(cacheKey);
    if (hit && hit.generation === generation) return hit.properties;
    const properties = await this.reads.groupProperties(projectId, index, key);
    this.groupRows.set(cacheKey, { properties, generation });
    return properties;
  }

  private async groupTypeMapping(projectId: number): Promise<Map<string, number>> {
    const hit = this.groupTypes.get(projectId);
    if (hit) return hit.mapping;
    const mapping = await this.reads.groupTypes(projectId);
    this.groupTypes.set(projectId, { mapping });
    return mapping;
  }
}
