// Turns a JSON-schema (Ajv) failure into the first error in Django REST framework's words, as
// PostHog reports it: {"type":"validation_error","code":..., "detail":..., "attr":...}.
import { ValidationError } from '../errors.js';

export interface SchemaFailure {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string | undefined;
  data?: unknown;
}

/** Python's name for a JSON value's type, as DRF puts it in messages. */
function pythonTypeName(value: unknown): string {
  if (value === null) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  switch (typeof value) {
    case 'string':
      return 'str';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int' : 'float';
    case 'object':
      return 'dict';
    default:
      return typeof value;
  }
}

/** "/app_urls/0" -> "app_urls__0", as drf-exceptions-hog joins nested field paths. */
function attrOf(failure: SchemaFailure): string | null {
  const segments = failure.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (failure.keyword === 'required' && typeof failure.params.missingProperty === 'string') {
    segments.push(failure.params.missingProperty);
  }
  if (segments.length === 0) return null;
  return segments.join('__');
}

function typeMessage(expected: unknown, value: unknown): [detail: string, code: string] {
  const types = Array.isArray(expected) ? expected : String(expected).split(',');
  const first = types.find((t) => t !== 'null') ?? 'null';
  if (value === null) return ['This field may not be null.', 'null'];
  switch (first) {
    case 'boolean':
      return ['Must be a valid boolean.', 'invalid_input'];
    case 'integer':
      return ['A valid integer is required.', 'invalid_input'];
    case 'number':
      return ['A valid number is required.', 'invalid_input'];
    case 'string':
      return ['Not a valid string.', 'invalid_input'];
    case 'array':
      return [`Expected a list of items but got type "${pythonTypeName(value)}".`, 'not_a_list'];
    case 'object':
      return [`Expected a dictionary of items but got type "${pythonTypeName(value)}".`, 'not_a_dict'];
    default:
      return ['Invalid value.', 'invalid_input'];
  }
}

function describe(failure: SchemaFailure, isRoot: boolean): [detail: string, code: string] {
  const limit = failure.params.limit;
  switch (failure.keyword) {
    case 'type':
      if (isRoot && failure.params.type === 'object') {
        return [`Invalid data. Expected a dictionary, but got ${pythonTypeName(failure.data)}.`, 'invalid_input'];
      }
      return typeMessage(failure.params.type, failure.data);
    case 'required':
      return ['This field is required.', 'required'];
    case 'maxLength':
      return [`Ensure this field has no more than ${limit} characters.`, 'max_length'];
    case 'minLength':
      return limit === 1
        ? ['This field may not be blank.', 'blank']
        : [`Ensure this field has at least ${limit} characters.`, 'min_length'];
    case 'maxItems':
      return [`Ensure this field has no more than ${limit} elements.`, 'max_length'];
    case 'minItems':
      return [`Ensure this field has at least ${limit} elements.`, 'min_length'];
    case 'maximum':
      return [`Ensure this value is less than or equal to ${limit}.`, 'max_value'];
    case 'minimum':
      return [`Ensure this value is greater than or equal to ${limit}.`, 'min_value'];
    case 'enum':
    case 'const':
      return [`"${String(failure.data)}" is not a valid choice.`, 'invalid_choice'];
    default:
      return [failure.message ?? 'Invalid input.', 'invalid_input'];
  }
}

/**
 * The first failure decides the answer (DRF reports only one). Within an anyOf (a nullable
 * field), the first branch is the meaningful one: it names the type that was expected.
 */
export function toValidationError(failures: readonly SchemaFailure[]): ValidationError {
  const failure = failures[0];
  if (!failure) return new ValidationError('Invalid input.', null);
  const attr = attrOf(failure);
  const [detail, code] = describe(failure, attr === null && failure.keyword !== 'required');
  return new ValidationError(detail, attr, code);
}
