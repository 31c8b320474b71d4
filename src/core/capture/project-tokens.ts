// Project capture tokens -> project ids, cached. Resetting a token or deleting a project bumps a
// shared counter, so every process refuses the old token within a second (this one at once).
import { ApiError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import { EpochCache } from '../epoch-cache.js';

export class InvalidProjectTokenError extends ApiError {
  constructor() {
    super(
      401,
      'authentication_error',
      'invalid_api_key',
      'Project API key invalid. You can find your project API key in PostHog project settings.',
    );
  }
}

export class ProjectTokens {
  private readonly cache: EpochCache<number | null>;

  constructor(private readonly repositories: Repositories) {
    this.cache = new EpochCache(() => repositories.counters.value('project_token_epoch'), { max: 10_000 });
  }

  /** The project id of a capture token; 401 for a token no project has. */
  async projectIdOf(token: string): Promise<number> {
    const id = await this.cache.get(token, async () => (await this.repositories.projects.idByToken(token)) ?? null);
    if (id === null) throw new InvalidProjectTokenError();
    return id;
  }

  /** A token stopped being valid: tell this process now and every other one through the counter. */
  async invalidate(): Promise<void> {
    this.cache.clear();
    await this.repositories.counters.bump('project_token_epoch');
  }
}
