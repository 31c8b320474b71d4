// A cohort's criteria as the editor holds them, and PostHog's `filters` they stand for: an outer
// AND/OR over groups, each group an AND/OR over criteria (PostHog's CohortFilters shows exactly two
// levels). Each row kind is one of PostHog's rows: a behaviour, a person property or a cohort,
// "not" rows being the same leaf with `negation: true`.
import { takesList, takesValue, valueFor, type Operator } from '../../lib/filters.js';

export type RowKind =
  | 'performed_event' | 'not_performed_event' | 'performed_event_multiple'
  | 'performed_event_first_time' | 'stopped_performing_event' | 'restarted_performing_event'
  | 'have_property' | 'not_have_property' | 'in_cohort' | 'not_in_cohort';

/** The row kinds Hoglet evaluates, by PostHog's labels and sections. */
export const ROW_KINDS: { section: string; kinds: [RowKind, string][] }[] = [
  { section: 'Behavioral', kinds: [['performed_event', 'Completed event'], ['not_performed_event', 'Did not complete event'], ['performed_event_multiple', 'Completed an event multiple times']] },
  { section: 'Person properties', kinds: [['have_property', 'Have the property'], ['not_have_property', 'Do not have the property']] },
  { section: 'Cohorts', kinds: [['in_cohort', 'In cohort'], ['not_in_cohort', 'Not in cohort']] },
  { section: 'Lifecycle', kinds: [['performed_event_first_time', 'Completed an event for the first time'], ['stopped_performing_event', 'Stopped doing an event'], ['restarted_performing_event', 'Started doing an event again']] },
];

export const TIME_INTERVALS = ['day', 'week', 'month', 'year'] as const;
/** PostHog's EventsAndActionsMathOperators. */
export const COUNT_OPERATORS: [string, string][] = [['exact', 'exactly'], ['gte', 'at least'], ['lte', 'at most']];

export interface Criterion {
  kind: RowKind;
  /** An event name, or an action's id when eventType is 'actions'; a person property's name. */
  key: string;
  eventType: 'events' | 'actions';
  /** What the picker shows for key (an action's name). */
  keyLabel: string;
  operator: Operator;
  values: string[];
  /** The person property's type from its definition (operators follow it). */
  propertyType: string | null;
  timeValue: string;
  timeInterval: string;
  seqTimeValue: string;
  seqTimeInterval: string;
  countOperator: string;
  count: string;
  cohortId: string;
  /** A saved leaf this editor cannot show field by field (event filters, explicit dates...): kept as is. */
  raw?: Record<string, unknown>;
}

export interface CriteriaGroup { type: 'AND' | 'OR'; criteria: Criterion[] }
export interface Criteria { type: 'AND' | 'OR'; groups: CriteriaGroup[] }

export function newCriterion(kind: RowKind = 'have_property'): Criterion {
  return {
    kind, key: '', eventType: 'events', keyLabel: '', operator: 'exact', values: [], propertyType: null,
    timeValue: '30', timeInterval: 'day', seqTimeValue: '30', seqTimeInterval: 'day', countOperator: 'exact', count: '5', cohortId: '',
  };
}

export const newGroup = (): CriteriaGroup => ({ type: 'AND', criteria: [newCriterion()] });
export const emptyCriteria = (): Criteria => ({ type: 'OR', groups: [newGroup()] });

export const isBehaviour = (kind: RowKind) => !['have_property', 'not_have_property', 'in_cohort', 'not_in_cohort'].includes(kind);
export const isPerson = (kind: RowKind) => kind === 'have_property' || kind === 'not_have_property';
export const isCohort = (kind: RowKind) => kind === 'in_cohort' || kind === 'not_in_cohort';
const isNegated = (kind: RowKind) => kind === 'not_performed_event' || kind === 'not_have_property' || kind === 'not_in_cohort';
const hasEarlierWindow = (kind: RowKind) => kind === 'stopped_performing_event' || kind === 'restarted_performing_event';

/** Operators by the property's type (PostHog offers date and numeric comparisons only where they mean something). */
export function operatorsFor(propertyType: string | null): Operator[] {
  const common: Operator[] = ['exact', 'is_not'];
  const set: Operator[] = ['is_set', 'is_not_set'];
  if (propertyType === 'Numeric') return [...common, 'gt', 'gte', 'lt', 'lte', ...set];
  if (propertyType === 'Boolean') return [...common, ...set];
  return [...common, 'icontains', 'not_icontains', 'regex', 'not_regex', 'gt', 'gte', 'lt', 'lte', ...set];
}

const EDITABLE_KEYS: Record<string, string[]> = {
  person: ['type', 'key', 'operator', 'value', 'negation'],
  cohort: ['type', 'key', 'value', 'negation'],
  behavioral: ['type', 'key', 'value', 'event_type', 'time_value', 'time_interval', 'negation', 'operator', 'operator_value', 'seq_time_value', 'seq_time_interval', 'bytecode', 'bytecode_error', 'conditionHash'],
};
const BEHAVIOURS = ['performed_event', 'performed_event_multiple', 'performed_event_first_time', 'stopped_performing_event', 'restarted_performing_event'];

const text = (v: unknown, fallback = '') => (v === undefined || v === null ? fallback : String(v));

function readLeaf(leaf: Record<string, unknown>): Criterion {
  const c = newCriterion();
  const type = String(leaf.type);
  const editable = EDITABLE_KEYS[type];
  const unknownKey = !editable || Object.keys(leaf).some((k) => !editable.includes(k) && !(k === 'event_filters' && Array.isArray(leaf[k]) && leaf[k].length === 0));
  const negation = leaf.negation === true;
  if (type === 'person' && !unknownKey) {
    const values = leaf.value === undefined || leaf.value === null ? [] : (Array.isArray(leaf.value) ? leaf.value : [leaf.value]).map(String);
    return { ...c, kind: negation ? 'not_have_property' : 'have_property', key: text(leaf.key), keyLabel: text(leaf.key), operator: text(leaf.operator, 'exact') as Operator, values };
  }
  if (type === 'cohort' && !unknownKey) return { ...c, kind: negation ? 'not_in_cohort' : 'in_cohort', cohortId: text(leaf.value) };
  const behaviour = text(leaf.value);
  // A behaviour without a relative window (explicit_datetime), or one PostHog negates where its rows do not, is kept whole.
  const negatable = behaviour === 'performed_event';
  if (type === 'behavioral' && !unknownKey && BEHAVIOURS.includes(behaviour) && leaf.time_value !== undefined && (!negation || negatable)) {
    return {
      ...c,
      kind: (negation ? 'not_performed_event' : behaviour) as RowKind,
      key: text(leaf.key), keyLabel: leaf.event_type === 'actions' ? `Action ${text(leaf.key)}` : text(leaf.key), eventType: leaf.event_type === 'actions' ? 'actions' : 'events',
      timeValue: text(leaf.time_value, '30'), timeInterval: text(leaf.time_interval, 'day'),
      seqTimeValue: text(leaf.seq_time_value, '30'), seqTimeInterval: text(leaf.seq_time_interval, 'day'),
      countOperator: text(leaf.operator, 'exact'), count: text(leaf.operator_value, '5'),
    };
  }
  return { ...c, raw: leaf };
}

const isGroup = (v: unknown): v is { type: 'AND' | 'OR'; values: unknown[] } =>
  !!v && typeof v === 'object' && ((v as { type?: unknown }).type === 'AND' || (v as { type?: unknown }).type === 'OR');

/** A saved cohort's filters as the editor's two levels; null when they nest deeper (kept, not edited). */
export function readCriteria(filters: { properties?: unknown } | null | undefined): Criteria | null {
  const top = filters?.properties;
  if (!isGroup(top) || !Array.isArray(top.values) || top.values.length === 0) return emptyCriteria();
  const groups: CriteriaGroup[] = [];
  for (const entry of top.values) {
    if (isGroup(entry)) {
      if (!Array.isArray(entry.values) || entry.values.some(isGroup)) return null;
      groups.push({ type: entry.type, criteria: entry.values.map((v) => readLeaf(v as Record<string, unknown>)) });
    } else {
      groups.push({ type: 'AND', criteria: [readLeaf(entry as Record<string, unknown>)] });
    }
  }
  return { type: top.type, groups };
}

const int = (v: string): number | string => (/^\d+$/.test(v.trim()) ? Number(v) : v);

function writeLeaf(c: Criterion): Record<string, unknown> {
  if (c.raw) return c.raw;
  const negation = isNegated(c.kind);
  if (isPerson(c.kind)) {
    const leaf: Record<string, unknown> = { type: 'person', key: c.key, operator: c.operator, negation };
    const value = valueFor(c.operator, c.values);
    if (value !== undefined) leaf.value = value;
    return leaf;
  }
  if (isCohort(c.kind)) return { type: 'cohort', key: 'id', value: int(c.cohortId), negation };
  const behaviour = c.kind === 'not_performed_event' ? 'performed_event' : c.kind;
  const leaf: Record<string, unknown> = {
    type: 'behavioral', value: behaviour, key: c.eventType === 'actions' ? int(c.key) : c.key, event_type: c.eventType,
    time_value: int(c.timeValue), time_interval: c.timeInterval, negation,
  };
  if (c.kind === 'performed_event_multiple') Object.assign(leaf, { operator: c.countOperator, operator_value: int(c.count) });
  if (hasEarlierWindow(c.kind)) Object.assign(leaf, { seq_time_value: int(c.seqTimeValue), seq_time_interval: c.seqTimeInterval });
  return leaf;
}

/** PostHog's `filters` for the editor's criteria. */
export function writeCriteria(criteria: Criteria): { properties: { type: 'AND' | 'OR'; values: unknown[] } } {
  return { properties: { type: criteria.type, values: criteria.groups.map((g) => ({ type: g.type, values: g.criteria.map(writeLeaf) })) } };
}

/** Where a problem is: "g.c.field" (a criterion's field), "g" (a group) or "" (the whole). */
export const fieldPath = (g: number, c: number, field: string) => `${g}.${c}.${field}`;

/** The API's 400 attr ("filters.properties.values[0].values[1].time_value") as an editor path. */
export function pathOfAttr(attr: string | null): string | null {
  if (!attr) return null;
  const m = /^filters\.properties\.values\[(\d+)\](?:\.values\[(\d+)\](?:\.(\w+))?)?/.exec(attr);
  if (!m) return null;
  if (m[2] === undefined) return m[1]!;
  return fieldPath(Number(m[1]), Number(m[2]), m[3] ?? 'key');
}

const positive = (v: string) => /^\s*[1-9]\d*\s*$/.test(v);

/** What the editor refuses before asking the server: empty fields, and PostHog's rule on negation. */
export function problemsOf(criteria: Criteria): Map<string, string> {
  const out = new Map<string, string>();
  criteria.groups.forEach((group, g) => {
    if (group.criteria.length === 0) out.set(`${g}`, 'A group needs at least one criterion.');
    group.criteria.forEach((c, i) => {
      if (c.raw) return;
      const at = (field: string, message: string) => { if (!out.has(fieldPath(g, i, field))) out.set(fieldPath(g, i, field), message); };
      if (isCohort(c.kind)) { if (!c.cohortId) at('value', 'Pick a cohort.'); return; }
      if (!c.key.trim()) at('key', isPerson(c.kind) ? 'Pick a person property.' : 'Pick an event or action.');
      if (isPerson(c.kind)) {
        if (takesValue(c.operator) && c.values.filter((v) => v.trim() !== '').length === 0) at('value', 'Give a value.');
        if (!takesList(c.operator) && ['gt', 'gte', 'lt', 'lte'].includes(c.operator) && c.values[0] !== undefined && !Number.isFinite(Number(c.values[0]))) at('value', 'Give a number.');
        return;
      }
      if (!positive(c.timeValue)) at('time_value', 'Give a whole number of periods, 1 or more.');
      if (hasEarlierWindow(c.kind) && !positive(c.seqTimeValue)) at('seq_time_value', 'Give a whole number of periods, 1 or more.');
      if (c.kind === 'performed_event_multiple' && !/^\s*\d+\s*$/.test(c.count)) at('operator_value', 'Give a whole number of times.');
    });
    // PostHog's cohort editor: negation needs AND and at least one positive criterion beside it.
    const negated = group.criteria.filter((c) => !c.raw && isNegated(c.kind)).length;
    if (negated > 0 && (group.type === 'OR' || negated === group.criteria.length)) {
      out.set(`${g}`, 'Negation criteria can only be used when matching all criteria (AND), and must be accompanied by at least one positive matching criteria.');
    }
  });
  return out;
}
