// The form's copy of a flag and the body it saves. Everything the form does not edit (holdouts,
// early access, flag dependencies, extra keys of a set or variant) is carried over from the saved
// flag, so an edit changes only what was touched.
import { keyProblem, payloadProblem, payloadText, variantSum, type ConditionSet, type FeatureFlag, type FlagFilters } from '../../lib/flags';
import { completeProperty } from './FlagPropertyRow';
import type { VariantDraft } from './VariantsEditor';

export interface Draft {
  key: string;
  name: string;
  active: boolean;
  continuity: boolean;
  groupIndex: number | null;
  sets: ConditionSet[];
  multivariate: boolean;
  variants: VariantDraft[];
  /** A boolean flag's payload (PostHog's key "true"). */
  truePayload: string;
}

export const DEFAULT_VARIANTS: VariantDraft[] = [
  { variant: { key: 'control', name: '', rollout_percentage: 50 }, payload: '' },
  { variant: { key: 'test', name: '', rollout_percentage: 50 }, payload: '' },
];

export function draftOf(flag: FeatureFlag | null): Draft {
  if (!flag) {
    return { key: '', name: '', active: true, continuity: false, groupIndex: null, sets: [{ properties: [], rollout_percentage: 100 }], multivariate: false, variants: DEFAULT_VARIANTS, truePayload: '' };
  }
  const filters = flag.filters ?? {};
  const payloads = filters.payloads ?? {};
  const variants = filters.multivariate?.variants ?? [];
  return {
    key: flag.key,
    name: flag.name ?? '',
    active: flag.active,
    continuity: flag.ensure_experience_continuity,
    groupIndex: filters.aggregation_group_type_index ?? null,
    sets: filters.groups ?? [],
    multivariate: variants.length > 0,
    variants: variants.length > 0 ? variants.map((v) => ({ variant: v, payload: payloadText(payloads[v.key]) })) : DEFAULT_VARIANTS,
    truePayload: payloadText(payloads['true']),
  };
}

/** Why Save is disabled, or null. */
export function draftProblem(d: Draft): string | null {
  const key = keyProblem(d.key);
  if (key) return key;
  if (d.key.length > 400) return 'Ensure this field has no more than 400 characters.';
  if (d.multivariate) {
    if (d.variants.some((v) => !v.variant.key)) return 'Every variant needs a key.';
    const keys = d.variants.map((v) => v.variant.key);
    if (new Set(keys).size !== keys.length) return 'Variant keys must be unique.';
    const sum = variantSum(d.variants.map((v) => v.variant));
    if (sum !== 100) return `The variants' rollout percentages add up to ${sum}%, not 100%.`;
    if (d.variants.some((v) => payloadProblem(v.payload))) return 'A payload is not valid JSON.';
  } else if (payloadProblem(d.truePayload)) return 'The payload is not valid JSON.';
  return null;
}

/** The saved flag's filters with the form's changes laid over them. */
export function filtersOf(d: Draft, saved: FlagFilters = {}): FlagFilters {
  const payloads: Record<string, string> = {};
  if (d.multivariate) {
    for (const v of d.variants) if (v.payload.trim() !== '') payloads[v.variant.key] = v.payload;
  } else if (d.truePayload.trim() !== '') payloads['true'] = d.truePayload;
  // A boolean flag has no variants to override with.
  const groups = d.sets.map((set) => ({
    ...set,
    properties: (set.properties ?? []).filter(completeProperty),
    ...(!d.multivariate && set.variant ? { variant: null } : {}),
  }));
  const next: FlagFilters = { ...saved, groups };
  // A key the saved filters lack and the form leaves empty stays absent (the flag reads back as it was).
  if (Object.keys(payloads).length > 0 || 'payloads' in saved) next.payloads = payloads;
  if (d.multivariate) next.multivariate = { ...(saved.multivariate ?? {}), variants: d.variants.map((v) => v.variant) };
  else if ('multivariate' in saved) next.multivariate = null;
  if (d.groupIndex !== null || 'aggregation_group_type_index' in saved) next.aggregation_group_type_index = d.groupIndex;
  return next;
}

/** The fields PostHog compares for a conflicting edit. */
const ORIGINAL_FIELDS = ['key', 'name', 'filters', 'active', 'deleted', 'ensure_experience_continuity', 'tags', 'evaluation_runtime', 'is_remote_configuration', 'version'];

export function bodyOf(d: Draft, saved: FeatureFlag | null): Record<string, unknown> {
  const body: Record<string, unknown> = {
    key: d.key,
    name: d.name,
    active: d.active,
    ensure_experience_continuity: d.continuity,
    filters: filtersOf(d, saved?.filters),
  };
  // The version read and the flag as read (PostHog's `original_flag`): a save changing a field
  // someone else changed meanwhile is PostHog's 409.
  if (saved) {
    if (saved.version !== undefined) body.version = saved.version;
    body.original_flag = Object.fromEntries(ORIGINAL_FIELDS.filter((f) => f in saved).map((f) => [f, saved[f]]));
  }
  return body;
}
