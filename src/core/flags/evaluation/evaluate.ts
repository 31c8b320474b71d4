// One flag, or a project's flags, for one subject: reference feature-flags.md section 2, following
// the current Rust service (flag_matching.rs get_match): early access, holdout, then the condition
// sets in stored order, the highest-scoring reason reported when none matches.
import type { FlagConditionSet, FlagDefinition, FlagPropertyFilter, FlagReasonCode, FlagResult } from '../types.js';
import { matchCohortFilter } from './cohorts.js';
import { dependencySatisfied, dependencyTarget, isFlagFilter, planEvaluation } from './dependencies.js';
import { flagHash, holdoutHash } from './hash.js';
import { matchProperty, type MatchOptions } from './operators.js';
import { GROUPS_NOT_EVALUATED, outranks, reason } from './reasons.js';
import { withInitialProperties, type FlagEvaluationContext, type FlagSubject } from './subject.js';
import { variantForHash, variantKeys } from './variants.js';

/** What one evaluation pass shares between flags: merged properties and finished results. */
interface Pass {
  subject: FlagSubject;
  context: FlagEvaluationContext;
  options: MatchOptions;
  personProperties: Record<string, unknown>;
  results: Map<FlagDefinition, FlagResult>;
  byId: ReadonlyMap<number, FlagDefinition>;
  byKey: ReadonlyMap<string, FlagDefinition>;
}

const result = (flag: FlagDefinition, enabled: boolean, variant: string | null, code: FlagReasonCode, index: number | null, payload: string | null): FlagResult => (
  { key: flag.key, enabled, variant, reason: reason(code, index), payload });

/** The stored payload of a value ("true" for a boolean flag), as its JSON string. */
function payloadOf(flag: FlagDefinition, variant: string | null): string | null {
  const stored = flag.filters.payloads?.[variant ?? 'true'];
  if (stored === undefined || stored === null) return null;
  return typeof stored === 'string' ? stored : JSON.stringify(stored);
}

const groupTypeName = (pass: Pass, index: number): string | undefined => pass.context.groupTypeMapping.get(index);

function groupKey(pass: Pass, index: number): string {
  const name = groupTypeName(pass, index);
  const key = name === undefined ? undefined : pass.subject.groups[name];
  return typeof key === 'number' ? String(key) : typeof key === 'string' ? key : '';
}

function groupProperties(pass: Pass, index: number | null | undefined): Record<string, unknown> {
  const name = index === null || index === undefined ? undefined : groupTypeName(pass, index);
  return (name !== undefined && pass.subject.groupProperties[name]) || {};
}

/** Who is bucketed: the group key, else device id / continuity override / distinct id. */
function identifier(pass: Pass, flag: FlagDefinition, aggregation: number | null): string {
  if (aggregation !== null) return groupKey(pass, aggregation);
  if (flag.bucketingIdentifier === 'device_id' && pass.subject.deviceId) return pass.subject.deviceId;
  const override = flag.ensureExperienceContinuity ? pass.subject.hashKeyOverride?.(flag.key) : undefined;
  return override ?? pass.subject.distinctId;
}

/** An empty identifier hashes to 0 (Rust get_hash), which every rollout lets in. */
const hashOf = (flag: FlagDefinition, id: string, salt: string): number => (id === '' ? 0 : flagHash(flag.key, id, salt));

function filterMatches(pass: Pass, filter: FlagPropertyFilter, aggregation: number | null): boolean {
  if (isFlagFilter(filter)) {
    const target = dependencyTarget(filter, pass.byId, pass.byKey);
    return dependencySatisfied(filter, target ? pass.results.get(target) : undefined);
  }
  const properties = filter.type === 'group' ? groupProperties(pass, filter.group_type_index ?? aggregation) : pass.personProperties;
  return matchProperty(filter, properties, pass.options);
}

/** A condition set: its filters in stored order (cohorts last, as they are the costly ones), then the rollout. */
function conditionMatch(pass: Pass, flag: FlagDefinition, set: FlagConditionSet, aggregation: number | null): FlagReasonCode {
  const filters = set.properties ?? [];
  const cohorts: FlagPropertyFilter[] = [];
  for (const filter of filters) {
    if (filter.type === 'cohort') cohorts.push(filter);
    else if (!filterMatches(pass, filter, aggregation)) return 'no_condition_match';
  }
  const inputs = { cohorts: pass.context.cohorts, staticCohortIds: pass.subject.staticCohortIds, personProperties: pass.personProperties, options: pass.options };
  if (!cohorts.every((filter) => matchCohortFilter(filter.value, filter.operator, inputs))) return 'no_condition_match';
  const rollout = set.rollout_percentage ?? 100;
  if (rollout === 100) return 'condition_match';
  return hashOf(flag, identifier(pass, flag, aggregation), '') <= rollout / 100 ? 'condition_match' : 'out_of_rollout_bound';
}

/** Early access: `$feature_enrollment/<key>` decides when the person has it (legacy: `super_groups`). */
function earlyAccess(pass: Pass, flag: FlagDefinition): FlagResult | null {
  const { filters } = flag;
  if (filters.feature_enrollment === true) {
    const property = `$feature_enrollment/${flag.key}`;
    if (!Object.hasOwn(pass.personProperties, property)) return null;
    const value = pass.personProperties[property];
    return result(flag, value === true || value === 'true', null, 'super_condition_value', 0, payloadOf(flag, null));
  }
  const legacy = filters.super_groups?.[0];
  if (!legacy?.properties?.length || !legacy.properties.some((filter) => Object.hasOwn(pass.personProperties, filter.key))) return null;
  const matched = conditionMatch(pass, flag, legacy, null) === 'condition_match';
  return result(flag, matched, null, 'super_condition_value', 0, payloadOf(flag, null));
}

/** Experiment holdout: "holdout-<identifier>" at or under the exclusion percentage -> variant holdout-<id>. */
function holdout(pass: Pass, flag: FlagDefinition): FlagResult | null {
  const { holdout: spec } = flag.filters;
  if (!spec) return null;
  const percentage = Math.min(100, Math.max(0, Number(spec.exclusion_percentage) || 0));
  const aggregation = flag.filters.aggregation_group_type_index ?? null;
  if (percentage < 100 && holdoutHash(identifier(pass, flag, aggregation)) > percentage / 100) return null;
  const variant = `holdout-${spec.id}`;
  return result(flag, true, variant, 'holdout_condition_value', null, payloadOf(flag, variant));
}

function evaluateOne(pass: Pass, flag: FlagDefinition): FlagResult {
  if (!flag.active || flag.deleted) return result(flag, false, null, 'flag_disabled', null, null);
  const decided = earlyAccess(pass, flag) ?? holdout(pass, flag);
  if (decided) return decided;
  // Rust seeds the reason with the lowest real one, so a flag without sets reports no_group_type.
  const best: { code: FlagReasonCode; index: number | null } = { code: 'no_group_type', index: null };
  let skippedGroups = false;
  const note = (code: FlagReasonCode, index: number): void => {
    if (outranks(code, best.code)) [best.code, best.index] = [code, index];
  };
  const sets = flag.filters.groups ?? [];
  for (const [index, set] of sets.entries()) {
    const aggregation = set.aggregation_group_type_index ?? flag.filters.aggregation_group_type_index ?? null;
    if (aggregation === null && flag.bucketingIdentifier === 'device_id' && !pass.subject.deviceId) {
      note('out_of_rollout_bound', index); // device bucketing without a device id: the set is skipped
      continue;
    }
    if (aggregation !== null && groupKey(pass, aggregation) === '') {
      skippedGroups = true;
      note('no_group_type', index);
      continue;
    }
    const code = conditionMatch(pass, flag, set, aggregation);
    note(code, index);
    if (code !== 'condition_match') continue;
    const override = set.variant && variantKeys(flag.filters).includes(set.variant) ? set.variant : null;
    const variant = override ?? variantForHash(hashOf(flag, identifier(pass, flag, aggregation), 'variant'), flag.filters);
    return result(flag, true, variant, best.code, best.index, payloadOf(flag, variant));
  }
  const off = result(flag, false, null, best.code, best.index, null);
  if (best.code === 'no_condition_match' && skippedGroups) off.reason.description = GROUPS_NOT_EVALUATED;
  return off;
}

/** What depends on the flags alone, worked out once per (cached, frozen) list of flags. */
interface Prepared {
  byId: ReadonlyMap<number, FlagDefinition>;
  byKey: ReadonlyMap<string, FlagDefinition>;
  plan: ReturnType<typeof planEvaluation>;
}

const prepared = new WeakMap<readonly FlagDefinition[], Prepared>();

function prepare(flags: readonly FlagDefinition[]): Prepared {
  let ready = prepared.get(flags);
  if (!ready) {
    const byId = new Map(flags.map((flag) => [flag.id, flag]));
    const byKey = new Map(flags.map((flag) => [flag.key, flag]));
    ready = { byId, byKey, plan: planEvaluation(flags, byId, byKey) };
    // Only frozen lists: one that may still change must not keep an old plan.
    if (Object.isFrozen(flags)) prepared.set(flags, ready);
  }
  return ready;
}

function startPass(ready: Prepared, subject: FlagSubject, context: FlagEvaluationContext): Pass {
  return {
    subject,
    context,
    options: { timezone: context.timezone, now: context.now },
    personProperties: withInitialProperties(subject.personProperties),
    results: new Map(),
    byId: ready.byId,
    byKey: ready.byKey,
  };
}

/** Every flag's result for one subject, keyed by flag key; dependencies are evaluated first. */
export function evaluateFlags(flags: readonly FlagDefinition[], subject: FlagSubject, context: FlagEvaluationContext): Map<string, FlagResult> {
  const ready = prepare(flags);
  const pass = startPass(ready, subject, context);
  const plan = ready.plan;
  for (const flag of plan.order) {
    pass.results.set(flag, plan.missingDependency.has(flag)
      ? result(flag, false, null, 'missing_dependency', null, null)
      : evaluateOne(pass, flag));
  }
  return new Map(flags.map((flag) => [flag.key, pass.results.get(flag)!]));
}

/** One flag's result (its dependencies, if any, among `flags`). */
export function evaluateFlag(flag: FlagDefinition, subject: FlagSubject, context: FlagEvaluationContext, flags: readonly FlagDefinition[] = [flag]): FlagResult {
  const all = flags.includes(flag) ? flags : [...flags, flag];
  return evaluateFlags(all, subject, context).get(flag.key)!;
}
