// What a PATCH of an event or property definition may change, checked as PostHog's enterprise
// serializers check it, and how verified and hidden move together: a definition is never both
// (hiding unverifies; verifying unhides), and verifying stamps who and when only the first time.
import { ValidationError } from '../../errors.js';
import { cleanTags, cleanText } from '../actions/validate.js';

/** PostHog's property types (PropertyType choices); Duration is read as a number. */
export const PROPERTY_TYPES = ['DateTime', 'String', 'Numeric', 'Boolean', 'Duration'] as const;
export type SetPropertyType = (typeof PROPERTY_TYPES)[number];

export interface DefinitionEditInput {
  description?: string | null | undefined;
  tags?: string[] | undefined;
  verified?: boolean | undefined;
  hidden?: boolean | undefined;
  property_type?: string | null | undefined;
}

/** The edited fields as stored (0/1 flags, tags as JSON text). */
export interface EditableState {
  description: string | null;
  tags: string;
  verified: number;
  verified_at: string | null;
  verified_by: number | null;
  hidden: number;
  property_type?: string | null;
}

export const UNEDITED: EditableState = { description: null, tags: '[]', verified: 0, verified_at: null, verified_by: null, hidden: 0 };

export function checkPropertyType(value: string | null): SetPropertyType | null {
  if (value === null) return null;
  if (!(PROPERTY_TYPES as readonly string[]).includes(value)) throw new ValidationError(`"${value}" is not a valid choice.`, 'property_type', 'invalid_choice');
  return value as SetPropertyType;
}

/**
 * The state after the edit. `what` names the thing in PostHog's refusal of hidden + verified
 * ("An event cannot be both hidden and verified").
 */
export function applyEdit(before: EditableState, input: DefinitionEditInput, what: 'event' | 'property', userId: number | null, now: string): EditableState {
  if (input.hidden === true && input.verified === true) {
    throw new ValidationError(`${what === 'event' ? 'An event' : 'A property'} cannot be both hidden and verified`, null, 'invalid_input');
  }
  const after: EditableState = { ...before };
  if (input.description !== undefined) after.description = input.description === null ? null : cleanText(input.description, 'description', { allowBlank: true });
  if (input.tags !== undefined) after.tags = JSON.stringify(cleanTags(input.tags));
  if (input.property_type !== undefined) after.property_type = checkPropertyType(input.property_type);
  if (input.hidden !== undefined) after.hidden = input.hidden ? 1 : 0;
  if (input.hidden === true) {
    Object.assign(after, { verified: 0, verified_at: null, verified_by: null });
  } else if (input.verified === true) {
    after.hidden = 0;
    // Re-verifying keeps the first verifier and time.
    if (before.verified !== 1) Object.assign(after, { verified: 1, verified_at: now, verified_by: userId });
  } else if (input.verified === false) {
    Object.assign(after, { verified: 0, verified_at: null, verified_by: null });
  }
  return after;
}

/** What the activity log compares, in PostHog's field names and JSON values. */
export function loggedFields(state: EditableState): Record<string, unknown> {
  return {
    // PostHog's enterprise rows start with "" (so a first description logs as "changed" from "").
    description: state.description ?? '',
    tags: JSON.parse(state.tags) as string[],
    verified: state.verified === 1,
    hidden: state.hidden === 1,
    ...(state.property_type !== undefined ? { property_type: state.property_type } : {}),
  };
}

export const LOGGED_FIELDS = ['description', 'tags', 'verified', 'hidden', 'property_type'] as const;
