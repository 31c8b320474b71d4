// The budgets on what a project's flags may ask of every /flags/ request: each request
// evaluates every live flag, so the cost of an answer grows with the conditions of all of them
// together, not of one. Bounding their number and their stored filters in total bounds that cost (bench/attacks:
// 2,000 flags of 1,000-value lists made a request cost ~190 ms of main thread before).
import { ValidationError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';

/** At most this many bytes of filters JSON across a project's live flags (~10 ms per /flags/ at most). */
export const MAX_PROJECT_FILTERS_BYTES = 2 * 1024 * 1024;
/** At most this many live flags (each request evaluates them all: 2,000 in a dependency chain cost ~30 ms per /flags/, 1,000 ~17 ms). */
export const MAX_PROJECT_FLAGS = 1000;

/** Refuses a write that would take the project's live flags past either budget (`flagId`'s own old filters not counted). */
export async function checkProjectFiltersBudget(repositories: Repositories, projectId: number, flagId: number | null, filtersJson: string): Promise<void> {
  const live = await repositories.featureFlags.liveFlags(projectId);
  const others = live.filter((row) => row.id !== flagId).length;
  if (others >= MAX_PROJECT_FLAGS) {
    throw new ValidationError(`A project can have at most ${MAX_PROJECT_FLAGS} feature flags. Delete flags you no longer use first.`, null, 'max_length');
  }
  let total = filtersJson.length;
  for (const row of live) if (row.id !== flagId) total += row.filters.length;
  if (total > MAX_PROJECT_FILTERS_BYTES) {
    throw new ValidationError(
      `The feature flags of a project can hold at most ${MAX_PROJECT_FILTERS_BYTES} bytes of filters in total; this change would make ${total}. Remove flags or shorten their conditions.`,
      'filters',
      'max_length',
    );
  }
}
