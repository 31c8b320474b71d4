// Property filters as PostHog's query nodes carry them: {key, value, operator, type}. exact and
// is_not take a list of values; the others one value; is_set / is_not_set none.
export type FilterType = 'event' | 'person';
export type Operator = 'exact' | 'is_not' | 'icontains' | 'not_icontains' | 'regex' | 'not_regex' | 'gt' | 'gte' | 'lt' | 'lte' | 'is_set' | 'is_not_set' | 'is_cleaned_path_exact';

export interface PropertyFilter {
  key: string;
  value?: string | number | (string | number)[] | null;
  operator: Operator;
  type: FilterType;
}

export const OPERATORS: [Operator, string][] = [
  ['exact', '= equals'],
  ['is_not', "≠ doesn't equal"],
  ['icontains', '∋ contains'],
  ['not_icontains', "∌ doesn't contain"],
  ['regex', '~ matches regex'],
  ['not_regex', "≁ doesn't match regex"],
  ['gt', '> greater than'],
  ['gte', '≥ at least'],
  ['lt', '< less than'],
  ['lte', '≤ at most'],
  ['is_set', '✓ is set'],
  ['is_not_set', '✕ is not set'],
];

/**
 * Operators kept but not offered: is_cleaned_path_exact is what the Web analytics page sends for a
 * path row with path cleaning on (PostHog's webAnalyticsLogic), and a saved insight may carry it.
 */
const OTHER_LABELS: Partial<Record<Operator, string>> = { is_cleaned_path_exact: '= equals (cleaned path)' };

export const operatorLabel = (op: string): string => OPERATORS.find(([o]) => o === op)?.[1] ?? OTHER_LABELS[op as Operator] ?? op;

export const takesValue = (op: Operator): boolean => op !== 'is_set' && op !== 'is_not_set';
export const takesList = (op: Operator): boolean => op === 'exact' || op === 'is_not' || op === 'is_cleaned_path_exact';

/** The filter's values as a list (what the value chips show). */
export function valuesOf(filter: PropertyFilter): string[] {
  const v = filter.value;
  if (v === undefined || v === null || v === '') return [];
  return (Array.isArray(v) ? v : [v]).map(String);
}

/** The value in the shape the operator wants; numbers compare as numbers. */
export function valueFor(op: Operator, values: string[]): PropertyFilter['value'] {
  if (!takesValue(op)) return undefined;
  if (takesList(op)) return values;
  const first = values[0] ?? '';
  if ((op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') && first.trim() !== '' && Number.isFinite(Number(first))) return Number(first);
  return first;
}

export function withOperator(filter: PropertyFilter, operator: Operator): PropertyFilter {
  const next: PropertyFilter = { key: filter.key, operator, type: filter.type };
  const value = valueFor(operator, valuesOf(filter));
  if (value !== undefined) next.value = value;
  return next;
}

/** Only filters that can run: a key, and a value when the operator needs one. Filters of other
 * types (hogql, cohort, group...) are not edited here and pass through as they are. */
export function complete(filters: PropertyFilter[] | undefined): PropertyFilter[] {
  return (filters ?? []).filter((f) => !isEditable(f) || (f.key && (!takesValue(f.operator) || valuesOf(f).length > 0)));
}

export const isEditable = (f: PropertyFilter): boolean => f.type === 'event' || f.type === 'person';

/**
 * Filters from a saved node as one list: a flat list, or PostHog's {type: AND, values: [...]}
 * groups when every level is AND. Null when an OR makes a flat list change the meaning.
 */
export function readFilters(value: unknown): PropertyFilter[] | null {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) {
    const out: PropertyFilter[] = [];
    for (const item of value) {
      if (item && typeof item === 'object' && Array.isArray((item as any).values)) {
        const inner = readFilters(item);
        if (!inner) return null;
        out.push(...inner);
      } else if (item && typeof item === 'object') out.push(item as PropertyFilter);
    }
    return out;
  }
  if (typeof value === 'object' && Array.isArray((value as any).values)) {
    if ((value as any).type === 'OR' && (value as any).values.length > 1) return null;
    return readFilters((value as any).values);
  }
  return null;
}
