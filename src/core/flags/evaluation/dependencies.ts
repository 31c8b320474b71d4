// Flag dependencies (`{type: "flag", key: "<flag id>", operator: "flag_evaluates_to"}`): the order
// flags must be evaluated in, and which flags cannot be (a dependency that is missing, or a cycle),
// as the Rust service's dependency graph does before evaluating anything.
import type { FlagDefinition, FlagPropertyFilter } from '../types.js';

export const isFlagFilter = (filter: FlagPropertyFilter): boolean => filter.type === 'flag';

/** The flag a dependency filter names: its id (PostHog stores the id as the key), else its key. */
export function dependencyTarget(filter: FlagPropertyFilter, byId: ReadonlyMap<number, FlagDefinition>, byKey: ReadonlyMap<string, FlagDefinition>): FlagDefinition | undefined {
  const id = Number(filter.key);
  return (Number.isInteger(id) ? byId.get(id) : undefined) ?? byKey.get(String(filter.key));
}

function directDependencies(flag: FlagDefinition): FlagPropertyFilter[] {
  return (flag.filters.groups ?? []).flatMap((set) => (set.properties ?? []).filter(isFlagFilter));
}

export interface EvaluationPlan {
  /** Every flag, dependencies before the flags that read them. */
  order: FlagDefinition[];
  /** Flags with a missing or cyclic dependency, at any depth. */
  missingDependency: Set<FlagDefinition>;
}

export function planEvaluation(flags: readonly FlagDefinition[], byId: ReadonlyMap<number, FlagDefinition>, byKey: ReadonlyMap<string, FlagDefinition>): EvaluationPlan {
  const order: FlagDefinition[] = [];
  const missingDependency = new Set<FlagDefinition>();
  const state = new Map<FlagDefinition, 'visiting' | 'done'>();
  const visit = (flag: FlagDefinition): boolean => {
    const seen = state.get(flag);
    if (seen === 'done') return !missingDependency.has(flag);
    if (seen === 'visiting') return false; // a cycle
    state.set(flag, 'visiting');
    let ok = true;
    for (const filter of directDependencies(flag)) {
      const target = dependencyTarget(filter, byId, byKey);
      if (!target || target.deleted || !visit(target)) ok = false;
    }
    state.set(flag, 'done');
    if (!ok) missingDependency.add(flag);
    order.push(flag);
    return ok;
  };
  for (const flag of flags) visit(flag);
  // A flag on a cycle was marked done before its partner noticed the cycle: mark the whole cycle.
  let changed = true;
  while (changed) {
    changed = false;
    for (const flag of order) {
      if (missingDependency.has(flag)) continue;
      if (directDependencies(flag).some((filter) => { const target = dependencyTarget(filter, byId, byKey); return !target || missingDependency.has(target); })) {
        missingDependency.add(flag);
        changed = true;
      }
    }
  }
  return { order, missingDependency };
}

/** Whether a dependency's result satisfies the filter: true = on, false = off, a string = that variant. */
export function dependencySatisfied(filter: FlagPropertyFilter, result: { enabled: boolean; variant: string | null } | undefined): boolean {
  if (filter.operator !== 'flag_evaluates_to' || !result) return false;
  if (filter.value === true) return result.enabled;
  if (filter.value === false) return !result.enabled;
  if (typeof filter.value === 'string') return result.enabled && result.variant === filter.value;
  return false;
}
