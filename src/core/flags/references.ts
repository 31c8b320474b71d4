// What a flag's conditions name, checked against the store: cohorts (live, in the project, without
// behavioural criteria, at any depth) and flag dependencies (live flags of the project, never the
// flag itself, never a cycle); and which live flags depend on a flag (no delete or disable then).
import { ValidationError } from '../../errors.js';
import type { FeatureFlagRow } from '../../storage/meta/repositories/feature-flags.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import { storedFilters } from './definitions.js';
import type { FlagFilters } from './types.js';

const MAX_COHORT_DEPTH = 20;

/** Flag ids a flag's conditions depend on. */
export function dependenciesOf(filters: FlagFilters): number[] {
  const ids = new Set<number>();
  for (const set of [...(filters.groups ?? []), ...(filters.super_groups ?? [])]) {
    for (const property of set.properties ?? []) if (property.type === 'flag' && /^\d+$/.test(property.key)) ids.add(Number(property.key));
  }
  return [...ids];
}

export async function checkCohorts(repositories: Repositories, projectId: number, cohortIds: readonly number[]): Promise<void> {
  const seen = new Set<number>();
  let frontier = [...new Set(cohortIds)];
  for (let depth = 0; frontier.length > 0 && depth <= MAX_COHORT_DEPTH; depth++) {
    const rows = await repositories.cohorts.findLiveForQuery(projectId, frontier);
    if (depth === 0) {
      const missing = frontier.find((id) => !rows.some((row) => row.id === id));
      if (missing !== undefined) throw new ValidationError(`Cohort with id ${missing} does not exist`, 'filters', 'cohort_does_not_exist');
    }
    const next: number[] = [];
    for (const row of rows) {
      seen.add(row.id);
      if (row.is_static === 1 || row.filters === null) continue;
      const criteria = JSON.parse(row.filters) as unknown;
      if (hasBehaviour(criteria)) throw new ValidationError(`Cohort '${row.name}' with filters on events cannot be used in feature flags.`, 'filters', 'behavioral_cohort_found');
      next.push(...namedCohorts(criteria));
    }
    frontier = [...new Set(next)].filter((id) => !seen.has(id));
  }
}

/** Walks a cohort's criteria tree (plain JSON). */
function walk(node: unknown, visit: (value: Record<string, unknown>) => void): void {
  const pending: unknown[] = [node];
  while (pending.length > 0) {
    const current = pending.pop();
    if (Array.isArray(current)) pending.push(...current);
    else if (current && typeof current === 'object') {
      visit(current as Record<string, unknown>);
      pending.push(...Object.values(current));
    }
  }
}

function hasBehaviour(criteria: unknown): boolean {
  let found = false;
  walk(criteria, (value) => {
    if (value.type === 'behavioral') found = true;
  });
  return found;
}

function namedCohorts(criteria: unknown): number[] {
  const ids: number[] = [];
  walk(criteria, (value) => {
    if (value.type === 'cohort' && (typeof value.value === 'number' || /^\d+$/.test(String(value.value)))) ids.push(Number(value.value));
  });
  return ids;
}

/** The dependencies of `flag` (its new filters) exist, are not itself, and close no cycle. */
export async function checkDependencies(repositories: Repositories, projectId: number, flag: { id: number | null; key: string }, dependencies: readonly number[]): Promise<void> {
  if (dependencies.length === 0) return;
  if (flag.id !== null && dependencies.includes(flag.id)) throw new ValidationError(`Feature flag '${flag.key}' cannot depend on itself`, 'filters', 'invalid_input');
  const live = await repositories.featureFlags.liveFlags(projectId);
  const byId = new Map(live.map((row) => [row.id, row]));
  for (const id of dependencies) {
    if (!byId.has(id)) throw new ValidationError(`Flag dependency references a flag that does not exist or is deleted: ${id}`, 'filters', 'invalid_input');
  }
  if (flag.id === null) return; // A new flag has no dependents yet, so it closes no cycle.
  const edges = new Map<number, number[]>(live.map((row) => [row.id, dependenciesOf(storedFilters(row))]));
  edges.set(flag.id, [...dependencies]);
  // Depth-first from the flag; a path back to it is the cycle PostHog names by keys.
  const keyOf = (id: number) => (id === flag.id ? flag.key : byId.get(id)?.key ?? String(id));
  const visited = new Set<number>();
  const path: number[] = [flag.id];
  const search = (id: number): number[] | null => {
    for (const next of edges.get(id) ?? []) {
      if (next === flag.id) return [...path, next];
      if (visited.has(next)) continue;
      visited.add(next);
      path.push(next);
      const found = search(next);
      if (found) return found;
      path.pop();
    }
    return null;
  };
  const cycle = search(flag.id);
  if (cycle) throw new ValidationError(`Circular dependency detected: ${cycle.map(keyOf).join(' → ')}`, 'filters', 'invalid_input');
}

/** Live active flags whose conditions name this one (so it may not be deleted or disabled). */
export async function dependentsOf(repositories: Repositories, projectId: number, flagId: number): Promise<FeatureFlagRow[]> {
  const live = await repositories.featureFlags.liveFlags(projectId);
  return live.filter((row) => row.id !== flagId && row.active === 1 && dependenciesOf(storedFilters(row)).includes(flagId));
}
