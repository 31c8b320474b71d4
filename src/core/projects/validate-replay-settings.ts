// PostHog's TeamSerializer checks of the session recording settings (posthog/api/team.py), with
// its messages: each is a dictionary (or null) with only the keys posthog-js knows.
import { ValidationError } from '../../errors.js';

const isDict = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function dictOrNull(value: unknown, attr: string): Record<string, unknown> | null {
  if (value === null) return null;
  if (!isDict(value)) throw new ValidationError('Must provide a dictionary or None.', attr, 'invalid');
  return value;
}

const fail = (detail: string, attr: string): never => {
  throw new ValidationError(detail, attr, 'invalid');
};

const sameKeys = (keys: string[], wanted: string[]) => keys.length === wanted.length && wanted.every((key) => keys.includes(key));

const REPLAY_CHECKS: Record<string, (value: unknown, attr: string) => void> = {
  session_recording_linked_flag(value, attr) {
    const dict = dictOrNull(value, attr);
    if (!dict) return;
    const keys = Object.keys(dict);
    if (!sameKeys(keys, ['id', 'key']) && !sameKeys(keys, ['id', 'key', 'variant'])) {
      fail("Must provide a dictionary with only 'id' and 'key' keys. _or_ only 'id', 'key', and 'variant' keys.", attr);
    }
  },
  session_recording_network_payload_capture_config(value, attr) {
    const dict = dictOrNull(value, attr);
    if (dict && !Object.keys(dict).every((key) => key === 'recordHeaders' || key === 'recordBody')) {
      fail("Must provide a dictionary with only 'recordHeaders' and/or 'recordBody' keys.", attr);
    }
  },
  session_recording_masking_config(value, attr) {
    const dict = dictOrNull(value, attr);
    if (!dict) return;
    const allowed = ['maskAllInputs', 'maskTextSelector', 'blockSelector'];
    if (!Object.keys(dict).every((key) => allowed.includes(key))) fail(`Must provide a dictionary with only known keys: ${allowed.join(', ')}.`, attr);
    if ('maskAllInputs' in dict && typeof dict.maskAllInputs !== 'boolean') fail('maskAllInputs must be a boolean.', attr);
    if ('maskTextSelector' in dict && typeof dict.maskTextSelector !== 'string') fail('maskTextSelector must be a string.', attr);
    if ('blockSelector' in dict && typeof dict.blockSelector !== 'string') fail('blockSelector must be a string.', attr);
  },
  session_recording_trigger_match_type_config(value, attr) {
    if (value !== null && value !== 'all' && value !== 'any') {
      fail("Must provide a valid trigger match type. Only 'all' or 'any' or None are allowed.", attr);
    }
  },
  session_recording_retention_period(value, attr) {
    // PostHog's ChoiceField answer.
    if (value !== null && !['30d', '90d', '1y', '5y'].includes(value as string)) {
      throw new ValidationError(`"${String(value)}" is not a valid choice.`, attr, 'invalid_choice');
    }
  },
  session_replay_config(value, attr) {
    const dict = dictOrNull(value, attr);
    if (!dict) return;
    const known = ['record_canvas', 'ai_config'];
    if (!Object.keys(dict).every((key) => known.includes(key))) fail(`Must provide a dictionary with only known keys. One or more of ${known.join(', ')}.`, attr);
    if ('ai_config' in dict && dict.ai_config !== null) {
      const allowed = ['included_event_properties', 'opt_in', 'preferred_events', 'excluded_events', 'important_user_properties'];
      if (!isDict(dict.ai_config)) fail('Must provide a dictionary or None.', attr);
      else if (!Object.keys(dict.ai_config).every((key) => allowed.includes(key))) fail(`Must provide a dictionary with only allowed keys: ${allowed.join(', ')}.`, attr);
    }
  },
};

/** Throws PostHog's 400 when a session recording setting has a shape PostHog refuses. */
export function checkReplaySetting(name: string, value: unknown): void {
  REPLAY_CHECKS[name]?.(value, name);
}
