// A project's flag definitions and the cohorts they target, as /flags/, /decide/ and the
// local-evaluation endpoints read them on every request: kept in memory until any flag or cohort
// of any project changes. The epoch is a fingerprint of the per-project flag epochs (bumped by
// every flag write) and of the cohorts table (count, versions, deletions, last update), read at
// most once a second, so a write in another process is seen within a second; this process's own
// flag and cohort writes clear it at once (clear(), called by the flags and cohorts services).
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { EpochCache } from '../epoch-cache.js';
import { definitionOf } from '../cohorts/definitions.js';
import { referencedCohorts, type CohortDefinition } from '../../query/cohorts/schema.js';
import type { CohortsRepository } from '../../storage/meta/repositories/cohorts.js';
import type { FeatureFlagsRepository } from '../../storage/meta/repositories/feature-flags.js';
import type { MetaSchema } from '../../storage/meta/schema.js';
import { flagDefinition } from './definitions.js';
import type { FlagDefinition, FlagFilters } from './types.js';

/** A cohort a flag targets, parsed for evaluation and as stored for local-evaluation SDKs. */
export interface FlagCohort {
  definition: CohortDefinition;
  /** PostHog's property group (`filters.properties`) as stored; null for a static cohort. */
  properties: unknown;
}

export interface ProjectFlags {
  /** Every non-deleted flag (inactive included), oldest first. */
  flags: readonly FlagDefinition[];
  /** The live cohorts the flags name, and every cohort those name, by id. */
  cohorts: ReadonlyMap<number, FlagCohort>;
}

/** Cohort nesting deeper than this is not followed (the query engine's budget stops far earlier). */
const MAX_COHORT_LEVELS = 20;

export class FlagDefinitionsCache {
  private readonly cache: EpochCache<ProjectFlags>;

  constructor(
    private readonly flags: FeatureFlagsRepository,
    private readonly cohorts: CohortsRepository,
    db: Kysely<MetaSchema>,
    options: { checkIntervalMs?: number } = {},
  ) {
    this.cache = new EpochCache(() => definitionsEpoch(db), { max: 10_000, ...options });
  }

  of(projectId: number): Promise<ProjectFlags> {
    return this.cache.get(String(projectId), () => this.load(projectId));
  }

  /** This process changed a flag or cohort. */
  clear(): void {
    this.cache.clear();
  }

  private async load(projectId: number): Promise<ProjectFlags> {
    const flags = (await this.flags.liveFlags(projectId)).map(flagDefinition);
    const cohorts = new Map<number, FlagCohort>();
    let wanted = [...new Set(flags.flatMap((flag) => cohortIdsOf(flag.filters)))];
    for (let level = 0; wanted.length > 0 && level < MAX_COHORT_LEVELS; level++) {
      const rows = await this.cohorts.findLiveForQuery(projectId, wanted);
      for (const row of rows) {
        const definition = definitionOf(row);
        const stored = row.filters === null ? null : (JSON.parse(row.filters) as { properties?: unknown });
        cohorts.set(row.id, { definition, properties: definition.isStatic ? null : (stored?.properties ?? null) });
      }
      wanted = [...new Set(rows.flatMap((row) => referencedCohorts(cohorts.get(row.id)!.definition.properties)))].filter((id) => !cohorts.has(id));
    }
    return Object.freeze({ flags: Object.freeze(flags), cohorts });
  }
}

/** The cohort ids a flag's condition sets name (`{"type": "cohort", "key": "id", "value": <id>}`). */
export function cohortIdsOf(filters: FlagFilters): number[] {
  const ids: number[] = [];
  for (const set of [...(filters.groups ?? []), ...(filters.super_groups ?? [])]) {
    for (const property of set.properties ?? []) {
      if (property.type !== 'cohort') continue;
      const id = Number(property.value);
      if (Number.isInteger(id)) ids.push(id);
    }
  }
  return ids;
}

/** One number that moves whenever any flag or cohort of any project is written. */
async function definitionsEpoch(db: Kysely<MetaSchema>): Promise<number> {
  const flags = await db
    .selectFrom('feature_flag_epochs')
    .select([sql<string>`count(*)`.as('n'), sql<string>`coalesce(sum(epoch), 0)`.as('total')])
    .executeTakeFirst();
  const cohorts = await db
    .selectFrom('cohorts')
    .select([
      sql<string>`count(*)`.as('n'),
      sql<string>`coalesce(sum(version), 0)`.as('versions'),
      sql<string>`coalesce(sum(deleted), 0)`.as('deleted'),
      sql<string | null>`max(updated_at)`.as('updated'),
    ])
    .executeTakeFirst();
  const fingerprint = JSON.stringify([flags?.n, flags?.total, cohorts?.n, cohorts?.versions, cohorts?.deleted, cohorts?.updated].map(String));
  return parseInt(createHash('sha1').update(fingerprint).digest('hex').slice(0, 12), 16);
}
