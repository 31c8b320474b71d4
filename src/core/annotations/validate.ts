// Checks of an annotation's fields, with DRF's messages as PostHog's AnnotationSerializer gives them.
import { ValidationError } from '../../errors.js';

export const ANNOTATION_SCOPES = ['dashboard_item', 'dashboard', 'project', 'organization'] as const;
export const CREATION_TYPES = ['USR', 'GIT'] as const;
/** PostHog's Annotation.content is a CharField(max_length=400). */
export const CONTENT_MAX_LENGTH = 400;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** An ISO 8601 date-time as UTC with milliseconds (text order = time order); null for none. */
export function parseDateMarker(value: unknown, attr = 'date_marker'): string | null {
  if (value === null || value === '') return null;
  const text = typeof value === 'string' ? value.trim() : '';
  const zoned = /T|\s/.test(text.slice(10)) && !/(Z|[+-]\d{2}:?\d{2})$/.test(text) ? `${text}Z` : text;
  const ms = Date.parse(zoned.replace(' ', 'T'));
  if (!DATE_TIME.test(text) || Number.isNaN(ms)) {
    throw new ValidationError(
      'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
      attr,
      'invalid',
    );
  }
  return new Date(ms).toISOString();
}

/** As DRF's DateTimeField writes it: UTC with Z, microseconds only when there are any. */
export function dateMarkerView(stored: string | null): string | null {
  if (stored === null) return null;
  return stored.endsWith('.000Z') ? `${stored.slice(0, -5)}Z` : stored.replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function checkContent(value: unknown): string | null {
  if (value === null) return null;
  if (typeof value !== 'string') throw new ValidationError('Not a valid string.', 'content', 'invalid');
  if (value.includes('\u0000')) throw new ValidationError('Null characters are not allowed.', 'content', 'null_characters_not_allowed');
  if (value.length > CONTENT_MAX_LENGTH) {
    throw new ValidationError(`Ensure this field has no more than ${CONTENT_MAX_LENGTH} characters.`, 'content', 'max_length');
  }
  return value;
}

export function checkChoice<T extends string>(value: unknown, choices: readonly T[], attr: string): T {
  if (typeof value === 'string' && (choices as readonly string[]).includes(value)) return value as T;
  throw new ValidationError(`"${String(value)}" is not a valid choice.`, attr, 'invalid_choice');
}

export function checkScope(value: unknown): (typeof ANNOTATION_SCOPES)[number] {
  // PostHog keeps "recording" in its choices but refuses it (comments replaced recording annotations).
  if (value === 'recording') throw new ValidationError('Recording scope is deprecated', null);
  return checkChoice(value, ANNOTATION_SCOPES, 'scope');
}

/** A primary key as DRF reads one: an integer or its text; null allowed. */
export function checkPk(value: unknown, attr: string): number | null {
  if (value === null) return null;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
  if (text === null || !/^\d{1,10}$/.test(text) || Number(text) > 2 ** 31 - 1) {
    throw new ValidationError(`Incorrect type. Expected pk value, received ${typeof value === 'string' ? 'str' : typeof value}.`, attr, 'incorrect_type');
  }
  return Number(text);
}

export function checkBoolean(value: unknown, attr: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === 'True' || value === 1 || value === '1') return true;
  if (value === 'false' || value === 'False' || value === 0 || value === '0') return false;
  throw new ValidationError('Must be a valid boolean.', attr, 'invalid');
}
