// Semantic checks of an action's fields and steps, with Django REST framework's messages where
// PostHog has them. Top-level types were checked at the HTTP edge; steps arrive as any JSON.
import { ValidationError } from '../../errors.js';
import { jsonDepth } from '../json-depth.js';

export const STEP_MATCHING = ['contains', 'regex', 'exact'] as const;
export type StepMatching = (typeof STEP_MATCHING)[number];

/** One step as stored and returned: every field of PostHog's ActionStepJSON, absent ones null. */
export interface ActionStep {
  event: string | null;
  properties: Array<Record<string, unknown>> | null;
  selector: string | null;
  tag_name: string | null;
  text: string | null;
  text_matching: StepMatching | null;
  href: string | null;
  href_matching: StepMatching | null;
  url: string | null;
  url_matching: StepMatching | null;
}

export const PROPERTY_OPERATORS = [
  'exact', 'is_not', 'icontains', 'not_icontains', 'regex', 'not_regex', 'gt', 'gte', 'lt', 'lte',
  'is_set', 'is_not_set', 'is_date_before', 'is_date_after', 'is_date_exact', 'between', 'not_between',
  'in', 'not_in', 'is_cleaned_path_exact',
] as const;

/** PostHog's property filter types (PropertyFilterType). */
export const PROPERTY_TYPES = [
  'event', 'person', 'element', 'session', 'cohort', 'group', 'hogql', 'recording', 'log_entry',
  'data_warehouse', 'data_warehouse_person_property', 'event_metadata', 'feature', 'flag', 'meta',
  'internal_event', 'error_tracking_issue', 'revenue_analytics', 'log', 'static-cohort', 'precalculated-cohort',
] as const;

/** Structured values nested deeper than this are refused: nothing legitimate nests further. */
const MAX_DEPTH = 32;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Python's name for a JSON value's type, as DRF puts it in messages. */
function pythonType(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'dict';
}

function noNul(text: string, attr: string): string {
  if (text.includes('\u0000')) throw new ValidationError('Null characters are not allowed.', attr, 'null_characters_not_allowed');
  return text;
}

/** A DRF CharField: trimmed (unless told otherwise), never blank unless allowed, no NUL. */
export function cleanText(value: string, attr: string, options: { trim?: boolean; allowBlank?: boolean } = {}): string {
  const text = options.trim === false ? value : value.trim();
  noNul(text, attr);
  if (text === '' && !options.allowBlank) throw new ValidationError('This field may not be blank.', attr, 'blank');
  return text;
}

/**
 * Refuses a pattern JavaScript cannot compile, and the constructs RE2 (ClickHouse's engine) lacks:
 * look-around and back-references. A leading RE2 flag group such as `(?i)` is allowed.
 */
export function regexProblem(pattern: string): string | null {
  const body = pattern.replace(/^\(\?[imsU]+\)/, '');
  try {
    new RegExp(body);
  } catch (error) {
    return (error as Error).message;
  }
  let inClass = false;
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char === '\\') {
      if (!inClass && /[1-9]/.test(body[i + 1] ?? '')) return 'back-references are not supported';
      i++;
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
    } else if (char === '(' && /^\?(=|!|<=|<!)/.test(body.slice(i + 1, i + 4))) {
      return 'look-around assertions are not supported';
    }
  }
  return null;
}

function checkRegex(pattern: string, attr: string): void {
  const problem = regexProblem(pattern);
  if (problem) throw new ValidationError(`Invalid regular expression: ${problem}`, attr);
}

function choice(value: unknown, attr: string, choices: readonly string[]): string | null {
  if (value === null) return null;
  if (typeof value !== 'string' || !choices.includes(value)) {
    throw new ValidationError(`"${String(value)}" is not a valid choice.`, attr, 'invalid_choice');
  }
  return value;
}

function stepText(step: Record<string, unknown>, field: string, attr: string, trim: boolean): string | null {
  const value = step[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new ValidationError('Not a valid string.', `${attr}__${field}`, 'invalid_input');
  return cleanText(value, `${attr}__${field}`, { trim });
}

function checkPropertyFilter(filter: unknown, attr: string): Record<string, unknown> {
  if (!isPlainObject(filter)) {
    throw new ValidationError(`Expected a dictionary of items but got type "${pythonType(filter)}".`, attr, 'not_a_dict');
  }
  if (jsonDepth(filter, MAX_DEPTH) > MAX_DEPTH) throw new ValidationError(`Nested deeper than ${MAX_DEPTH} levels.`, attr);
  const { key, type, operator, value } = filter;
  if (key === undefined) throw new ValidationError('This field is required.', `${attr}__key`, 'required');
  if (typeof key !== 'string') throw new ValidationError('Not a valid string.', `${attr}__key`, 'invalid_input');
  noNul(key, `${attr}__key`);
  if (key.trim() === '') throw new ValidationError('This field may not be blank.', `${attr}__key`, 'blank');
  if (type !== undefined) choice(type, `${attr}__type`, PROPERTY_TYPES);
  if (operator !== undefined) choice(operator, `${attr}__operator`, PROPERTY_OPERATORS);
  if ((operator === 'regex' || operator === 'not_regex') && typeof value === 'string') checkRegex(value, `${attr}__value`);
  return filter;
}

function checkStep(raw: unknown, index: number): ActionStep {
  const attr = `steps__${index}`;
  if (!isPlainObject(raw)) {
    throw new ValidationError(`Invalid data. Expected a dictionary, but got ${pythonType(raw)}.`, attr, 'invalid');
  }
  let properties: Array<Record<string, unknown>> | null = null;
  if (raw.properties !== undefined && raw.properties !== null) {
    if (!Array.isArray(raw.properties)) {
      throw new ValidationError(
        `Expected a list of items but got type "${pythonType(raw.properties)}".`,
        `${attr}__properties`,
        'not_a_list',
      );
    }
    properties = raw.properties.map((filter, i) => checkPropertyFilter(filter, `${attr}__properties__${i}`));
  }
  const matching = (field: string, fallback: StepMatching | null) =>
    raw[field] === undefined ? fallback : (choice(raw[field], `${attr}__${field}`, STEP_MATCHING) as StepMatching | null);
  const step: ActionStep = {
    event: stepText(raw, 'event', attr, false),
    properties,
    selector: stepText(raw, 'selector', attr, true),
    tag_name: stepText(raw, 'tag_name', attr, false),
    text: stepText(raw, 'text', attr, false),
    text_matching: matching('text_matching', null),
    href: stepText(raw, 'href', attr, false),
    href_matching: matching('href_matching', null),
    url: stepText(raw, 'url', attr, true),
    // PostHog's ActionStepJSON defaults url_matching to "contains"; an explicit null stays null.
    url_matching: matching('url_matching', 'contains'),
  };
  for (const field of ['url', 'text', 'href'] as const) {
    const value = step[field];
    if (value !== null && step[`${field}_matching`] === 'regex') checkRegex(value, `${attr}__${field}`);
  }
  return step;
}

/** The steps as stored: known fields only, in PostHog's order, absent ones null. */
export function validateSteps(steps: readonly unknown[]): ActionStep[] {
  return steps.map(checkStep);
}

/** Tags as PostHog keeps them: trimmed, lower case, without repeats (sorted here for a stable order). */
export function cleanTags(tags: readonly string[]): string[] {
  const cleaned = tags.map((tag, i) => cleanText(tag, `tags__${i}`).toLowerCase());
  return [...new Set(cleaned)].sort();
}

/** DRF's DateTimeField: "" means none, anything else must be a date-time. */
export function checkDateTime(value: string | null, attr: string): string | null {
  if (value === null || value === '') return null;
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new ValidationError(
      'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      attr,
      'invalid',
    );
  }
  return value;
}
