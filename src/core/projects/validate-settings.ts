// Semantic checks for project settings that a JSON schema cannot express, with PostHog's
// (Django REST framework's) exact messages. Shapes and types were checked at the HTTP edge.
import { ValidationError } from '../../errors.js';
import { isValidTimezone } from '../timezones.js';
import { jsonDepth } from '../json-depth.js';
import { PROJECT_SETTINGS, type ProjectSettingName, type SettingSpec } from './settings-catalog.js';
import { checkReplaySetting } from './validate-replay-settings.js';

/** Structured settings deeper than this are refused: nothing legitimate nests further. */
export const MAX_JSON_DEPTH = 32;

/** DRF DecimalField(max_digits=3, decimal_places=2) with 0 <= value <= 1, serialised as "0.40". */
export function parseSampleRate(value: unknown, attr: string): string | null {
  if (value === null) return null;
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : null;
  if (text === null || !/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) || !Number.isFinite(Number(text))) {
    throw new ValidationError('A valid number is required.', attr);
  }
  const number = Number(text);
  const [whole = '', fraction = ''] = Math.abs(number).toString().split('.');
  if (fraction.length > 2) {
    throw new ValidationError('Ensure that there are no more than 2 decimal places.', attr, 'max_decimal_places');
  }
  if (whole.replace(/^0+/, '').length > 1) {
    throw new ValidationError(
      'Ensure that there are no more than 1 digits before the decimal point.',
      attr,
      'max_whole_digits',
    );
  }
  if (number > 1) throw new ValidationError('Ensure this value is less than or equal to 1.', attr, 'max_value');
  if (number < 0) throw new ValidationError('Ensure this value is greater than or equal to 0.', attr, 'min_value');
  return number.toFixed(2);
}

/** DRF refuses NUL in text fields; PostgreSQL could not store it either. */
export function assertNoNullCharacters(value: unknown, attr: string): void {
  const strings = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  if (strings.some((item) => typeof item === 'string' && item.includes('\u0000'))) {
    throw new ValidationError('Null characters are not allowed.', attr, 'null_characters_not_allowed');
  }
}

function checkSetting(name: ProjectSettingName, spec: SettingSpec, value: unknown): unknown {
  if (spec.kind === 'string' || spec.kind === 'stringList' || spec.kind === 'timezone') {
    assertNoNullCharacters(value, name);
  }
  checkReplaySetting(name, value);
  switch (spec.kind) {
    case 'timezone':
      if (typeof value !== 'string' || !isValidTimezone(value)) {
        throw new ValidationError(`"${String(value)}" is not a valid choice.`, name, 'invalid_choice');
      }
      return value;
    case 'sampleRate':
      return parseSampleRate(value, name);
    case 'choice':
      if (value !== null && !spec.choices.includes(value as number)) {
        throw new ValidationError(`"${String(value)}" is not a valid choice.`, name, 'invalid_choice');
      }
      return value;
    case 'stringList':
      // PostHog drops null entries of URL lists on save.
      return Array.isArray(value) ? value.filter((item) => item !== null) : value;
    case 'json':
      if (jsonDepth(value, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
        throw new ValidationError(`Nested deeper than ${MAX_JSON_DEPTH} levels.`, name);
      }
      return value;
    default:
      return value;
  }
}

/** Returns the given settings, checked and normalised; unknown keys are dropped. */
export function validateSettings(input: Readonly<Record<string, unknown>>): Partial<Record<ProjectSettingName, unknown>> {
  const out: Partial<Record<ProjectSettingName, unknown>> = {};
  for (const [name, spec] of Object.entries(PROJECT_SETTINGS) as Array<[ProjectSettingName, SettingSpec]>) {
    if (!Object.hasOwn(input, name) || input[name] === undefined) continue;
    out[name] = checkSetting(name, spec, input[name]);
  }
  return out;
}
