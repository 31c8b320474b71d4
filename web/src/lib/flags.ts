// Feature flags through PostHog's flags API (/api/projects/:id/feature_flags/), the checks the
// form makes before saving (key characters, variant sum, payload JSON), the words the list and
// the flag's page show, the usage chart's query and the "test this flag" call to /flags/?v=2.
import { api, ApiError, qs } from '../api';
import type { Page, QueryNode, UserBasic } from '../types';
import type { Option } from './definitions';
import { hogqlField, runQuery } from './run';

export interface FlagProperty {
  key: string;
  type: string;
  operator?: string | null;
  value?: unknown;
  group_type_index?: number | null;
  [other: string]: unknown;
}

export interface ConditionSet {
  properties?: FlagProperty[];
  rollout_percentage?: number | null;
  variant?: string | null;
  [other: string]: unknown;
}

export interface Variant {
  key: string;
  name?: string | null;
  rollout_percentage: number;
  [other: string]: unknown;
}

export interface FlagFilters {
  groups?: ConditionSet[];
  multivariate?: { variants: Variant[]; [other: string]: unknown } | null;
  payloads?: Record<string, unknown>;
  aggregation_group_type_index?: number | null;
  [other: string]: unknown;
}

export interface FeatureFlag {
  id: number;
  key: string;
  /** PostHog's `name` is the flag's description. */
  name: string;
  filters: FlagFilters;
  active: boolean;
  deleted: boolean;
  ensure_experience_continuity: boolean;
  version?: number;
  created_by: UserBasic | null;
  created_at: string;
  [other: string]: unknown;
}

export interface GroupType {
  group_type_index: number;
  group_type: string;
  name_plural?: string | null;
}

const base = (project: string) => `/api/projects/${project}/feature_flags/`;

export const listFlags = (project: string, search: string, active: '' | 'true' | 'false', signal?: AbortSignal) =>
  api<Page<FeatureFlag>>(`${base(project)}${qs({ search, active, limit: 200 })}`, { signal });

export const getFlag = (project: string, id: string, signal?: AbortSignal) =>
  api<FeatureFlag>(`${base(project)}${encodeURIComponent(id)}/`, { signal });

export const createFlag = (project: string, body: Record<string, unknown>) =>
  api<FeatureFlag>(base(project), { method: 'POST', body });

export const updateFlag = (project: string, id: number, body: Record<string, unknown>) =>
  api<FeatureFlag>(`${base(project)}${id}/`, { method: 'PATCH', body });

/** PostHog soft-deletes: DELETE is 405, `deleted: true` hides the flag and frees its key. */
export const deleteFlag = (project: string, id: number) => updateFlag(project, id, { deleted: true });

// ---- checks the form makes (PostHog's own rules, so a Save does not meet a 400 it could foresee)

/** PostHog's `validate_key`: letters, numbers, hyphens and underscores. */
export function keyProblem(key: string): string | null {
  if (!key) return 'Please set a key';
  if (!/^[a-zA-Z0-9_-]+$/.test(key)) return 'Only letters, numbers, hyphens (-) & underscores (_) are allowed.';
  return null;
}

export const variantSum = (variants: Variant[]): number => variants.reduce((sum, v) => sum + (Number(v.rollout_percentage) || 0), 0);

/** 100 split as evenly as whole numbers allow; the first variants take the remainder (3 → 34, 33, 33). */
export function distributeEqually(variants: Variant[]): Variant[] {
  const n = variants.length;
  if (n === 0) return variants;
  const share = Math.floor(100 / n);
  const rest = 100 - share * n;
  return variants.map((v, i) => ({ ...v, rollout_percentage: share + (i < rest ? 1 : 0) }));
}

/** Null when the text is empty (no payload) or JSON; otherwise the parser's complaint. */
export function payloadProblem(text: string): string | null {
  if (text.trim() === '') return null;
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    return `Invalid JSON: ${(e as Error).message}`;
  }
}

/** Stored payloads are JSON strings; an object (older clients) is shown as its JSON. */
export const payloadText = (value: unknown): string =>
  value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

// ---- words

export function isMultivariate(filters: FlagFilters): boolean {
  return (filters.multivariate?.variants?.length ?? 0) > 0;
}

/** "100% of all users", "50% of users matching 2 conditions", "2 condition sets", plus "3 variants". */
export function rolloutSummary(filters: FlagFilters, groupTypes: GroupType[] = []): string {
  const who = targetName(filters.aggregation_group_type_index ?? null, groupTypes);
  const sets = filters.groups ?? [];
  let rollout: string;
  if (sets.length === 0 || sets.every((s) => s.rollout_percentage === 0)) rollout = `No ${who}`;
  else if (sets.some((s) => !(s.properties?.length) && (s.rollout_percentage ?? 100) === 100)) rollout = `100% of all ${who}`;
  else if (sets.length === 1) {
    const n = sets[0]!.properties?.length ?? 0;
    const pct = sets[0]!.rollout_percentage ?? 100;
    rollout = n > 0 ? `${pct}% of ${who} matching ${n} condition${n === 1 ? '' : 's'}` : `${pct}% of all ${who}`;
  } else rollout = `${sets.length} condition sets`;
  const variants = filters.multivariate?.variants?.length ?? 0;
  return variants > 0 ? `${rollout} · ${variants} variant${variants === 1 ? '' : 's'}` : rollout;
}

/** "users", or the group type's plural ("companies") for a group flag. */
export function targetName(index: number | null, groupTypes: GroupType[]): string {
  if (index === null || index === undefined) return 'users';
  const type = groupTypes.find((g) => g.group_type_index === index);
  return type ? type.name_plural || `${type.group_type}(s)` : `group type ${index}`;
}

/** One condition in words: `email ∋ "@corp.com"`, `in cohort Paying (3)`. */
export function describeProperty(p: FlagProperty, cohortName?: (id: string) => string | undefined): string {
  if (p.type === 'cohort') {
    const id = String(p.value);
    const name = cohortName?.(id);
    return `${p.operator === 'not_in' ? 'not in' : 'in'} cohort ${name ? `${name} (${id})` : id}`;
  }
  if (p.type === 'flag') return `flag ${p.key} evaluates to ${JSON.stringify(p.value)}`;
  const op = p.operator ?? 'exact';
  const value = p.value === undefined || p.value === null ? '' : ` ${Array.isArray(p.value) ? p.value.map((v) => JSON.stringify(v)).join(' or ') : JSON.stringify(p.value)}`;
  return `${p.key} ${OPERATOR_WORDS[op] ?? op}${op === 'is_set' || op === 'is_not_set' ? '' : value}`;
}

const OPERATOR_WORDS: Record<string, string> = {
  exact: '=', is_not: '≠', icontains: 'contains', not_icontains: "doesn't contain", regex: 'matches', not_regex: "doesn't match",
  gt: '>', gte: '≥', lt: '<', lte: '≤', is_set: 'is set', is_not_set: 'is not set',
  is_date_before: 'before', is_date_after: 'after', is_date_exact: 'on',
};

// ---- pickers' option loaders

/** The project's cohorts as options (value: the id), filtered by the typed text. */
export function cohortOptions(project: string) {
  return async (search: string, signal: AbortSignal): Promise<Option[]> => {
    const page = await api<{ results: { id: number; name: string | null; is_static?: boolean }[] }>(`/api/projects/${project}/cohorts/?limit=200`, { signal });
    const needle = search.trim().toLowerCase();
    return page.results
      .filter((c) => !needle || (c.name ?? '').toLowerCase().includes(needle) || String(c.id) === needle)
      .map((c) => ({ value: String(c.id), label: c.name || `Cohort ${c.id}`, hint: c.is_static ? 'static' : undefined }));
  };
}

/** A group type's property keys (PostHog's property_definitions with type=group). */
export function groupPropertyOptions(project: string, index: number) {
  return async (search: string, signal: AbortSignal): Promise<Option[]> => {
    const page = await api<Page<{ name: string; property_type?: string | null }>>(
      `/api/projects/${project}/property_definitions/${qs({ type: 'group', group_type_index: index, search, limit: 50 })}`, { signal });
    return page.results.map((p) => ({ value: p.name, label: p.name, hint: p.property_type ?? undefined }));
  };
}

/** Values seen for a group property, counted over the project's groups of that type (HogQL). */
export function groupValueOptions(project: string, index: number, key: string) {
  return async (search: string, signal: AbortSignal): Promise<Option[]> => {
    if (!key) return [];
    const where = ['index = {i}', 'isNotNull(v)', "v != ''"];
    const values: Record<string, unknown> = { i: index };
    if (search) { where.push('v ilike {q}'); values.q = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`; }
    const query = `select toString(properties.${hogqlField(key)}) as v, count() as c from groups where ${where.join(' and ')} group by v order by c desc, v limit 50`;
    const answer = await runQuery<{ results: [string, number][] }>(project, { kind: 'HogQLQuery', query, values }, signal);
    return answer.results.map(([v, c]) => ({ value: v, label: v, hint: String(c) }));
  };
}

/**
 * The project's group types as capture numbered them: the `group_type_mapping` of the flag
 * definitions SDKs poll for local evaluation ({"0": "company"}); none when capture has seen no
 * `$groups` (or the caller may not read definitions).
 */
export async function loadGroupTypes(project: string, signal?: AbortSignal): Promise<GroupType[]> {
  try {
    const definitions = await api<{ group_type_mapping?: Record<string, string> }>(`/api/projects/${project}/feature_flags/local_evaluation/`, { signal });
    return Object.entries(definitions.group_type_mapping ?? {})
      .map(([index, name]) => ({ group_type_index: Number(index), group_type: name }))
      .sort((a, b) => a.group_type_index - b.group_type_index);
  } catch (e) {
    if (e instanceof ApiError && e.status !== 401) return [];
    throw e;
  }
}

// ---- the flag's page

/**
 * PostHog's usage dashboard trends: `$feature_flag_called` for this key by response, last 30 days;
 * all calls as a line graph ("Feature Flag Called Total Volume"), or unique users (`dau`) as a
 * table ("Feature Flag calls made by unique users per variant").
 */
export function usageQuery(key: string, math: 'total' | 'dau' = 'total'): QueryNode {
  return {
    kind: 'TrendsQuery',
    series: [{ kind: 'EventsNode', event: '$feature_flag_called', name: '$feature_flag_called', math }],
    properties: [{ key: '$feature_flag', type: 'event', value: [key], operator: 'exact' }],
    breakdownFilter: { breakdown: '$feature_flag_response', breakdown_type: 'event' },
    dateRange: { date_from: '-30d', date_to: null },
    interval: 'day',
    trendsFilter: { display: math === 'dau' ? 'ActionsTable' : 'ActionsLineGraph' },
  };
}

export interface FlagAnswer {
  key: string;
  enabled: boolean;
  variant: string | null;
  reason?: { code: string; condition_index: number | null; description: string } | null;
  metadata?: { payload?: string | null; version?: number } | null;
}

/** What posthog-js / posthog-node would get: POST /flags/?v=2 with the project's token. */
export async function evaluateFlags(token: string, distinctId: string, personProperties: Record<string, unknown> | null, groups: Record<string, string> | null = null): Promise<Record<string, FlagAnswer>> {
  const body: Record<string, unknown> = { token, distinct_id: distinctId };
  if (personProperties) body.person_properties = personProperties;
  if (groups) body.groups = groups;
  const answer = await api<{ flags?: Record<string, FlagAnswer> }>('/flags/?v=2', { method: 'POST', body, redirectOn401: false });
  return answer.flags ?? {};
}
