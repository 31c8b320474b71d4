// A project's secret keys (`phs_`), PostHog's Team.secret_api_token and its backup: a rotation
// makes a new primary and keeps the old one as the backup (the old backup stops working), so
// servers can move to the new key without a gap. Keys resolve to their project through a cache
// that the project token epoch flushes: a rotation bumps it, so every process drops the old
// backup within a second (this one at once).
import type { Change } from '../activity.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import { EpochCache } from '../epoch-cache.js';
import { maskKey, newProjectSecretToken } from '../tokens.js';

export const SECRET_KEY_PREFIX = 'phs_';

type SecretColumns = Pick<ProjectRow, 'secret_api_token' | 'secret_api_token_backup'>;

/** The new columns of a rotation and the change PostHog logs for it (masked values). */
export function rotation(project: SecretColumns): { columns: SecretColumns; change: Change } {
  const oldPrimary = project.secret_api_token;
  const columns = { secret_api_token: newProjectSecretToken(), secret_api_token_backup: oldPrimary };
  const before: Record<string, string | null> = { secret_api_token: oldPrimary === null ? null : maskKey(oldPrimary) };
  const after: Record<string, string | null> = { secret_api_token: maskKey(columns.secret_api_token) };
  if (oldPrimary !== null) {
    // A rotation rather than a first key: the backup changes too.
    const oldBackup = project.secret_api_token_backup;
    before.secret_api_token_backup = oldBackup === null ? null : maskKey(oldBackup);
    after.secret_api_token_backup = maskKey(oldPrimary);
  }
  const action = oldPrimary === null ? 'created' : 'changed';
  return { columns, change: { type: 'Team', action, field: 'secret_api_token', before, after } };
}

/** The change PostHog logs when the backup is deleted. */
export const backupDeletion = (oldBackup: string): Change => ({
  type: 'Team',
  action: 'deleted',
  field: 'secret_api_token_backup',
  before: maskKey(oldBackup),
  after: null,
});

export class ProjectSecretTokens {
  private readonly cache: EpochCache<number | null>;

  constructor(private readonly repositories: Repositories) {
    this.cache = new EpochCache(() => repositories.counters.value('project_token_epoch'), { max: 10_000 });
  }

  /** The project whose primary or backup secret key this is; null for any other text. */
  async projectOf(token: string): Promise<number | null> {
    if (!token.startsWith(SECRET_KEY_PREFIX)) return null;
    return this.cache.get(token, async () => (await this.repositories.projects.idBySecretToken(token)) ?? null);
  }

  /** This process changed a key: forget now (other processes follow the epoch the change bumps). */
  clear(): void {
    this.cache.clear();
  }
}
