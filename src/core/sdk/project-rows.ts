// The project rows the SDK endpoints read on every request (a /flags/ answer's remote config needs
// the project's settings and token), kept in memory: this process's own project writes clear it at
// once (ProjectEffects.changed); another process's are seen within a second, through a
// fingerprint of the projects table (count, ids, last update; every settings, name or token
// change sets updated_at). `ingested_event`, set without updated_at, is not read here.
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { EpochCache } from '../epoch-cache.js';
import type { ProjectsRepository } from '../../storage/meta/repositories/projects.js';
import type { MetaSchema } from '../../storage/meta/schema.js';

type ProjectRow = NonNullable<Awaited<ReturnType<ProjectsRepository['findById']>>>;

export class ProjectRowCache {
  private readonly cache: EpochCache<ProjectRow | null>;

  constructor(
    private readonly rows: ProjectsRepository,
    db: Kysely<MetaSchema>,
  ) {
    this.cache = new EpochCache(() => projectsEpoch(db), { max: 10_000 });
  }

  /** The row, or null for a project that does not exist (deleted since its token was cached). */
  row(projectId: number): Promise<ProjectRow | null> {
    return this.cache.get(String(projectId), async () => (await this.rows.findById(projectId)) ?? null);
  }

  /** This process changed a project. */
  clear(): void {
    this.cache.clear();
  }
}

async function projectsEpoch(db: Kysely<MetaSchema>): Promise<number> {
  const row = await db
    .selectFrom('projects')
    .select([sql<string>`count(*)`.as('n'), sql<string>`coalesce(sum(id), 0)`.as('ids'), sql<string | null>`max(updated_at)`.as('updated')])
    .executeTakeFirst();
  const fingerprint = JSON.stringify([row?.n, row?.ids, row?.updated].map(String));
  return parseInt(createHash('sha1').update(fingerprint).digest('hex').slice(0, 12), 16);
}
