// How one event changes person properties: $set_once fills gaps, $set overwrites, $unset removes,
// in that order (PostHog's person-state). Campaign and device properties of the event also become
// `$initial_*` properties once, and their latest values are kept for the few that rarely change.
// An event capture located adds its place as PostHog's GeoIP transformation's `$set` / `$set_once`.
import {
  applyInitialLocation,
  applyLatestLocation,
  forgetLocated,
  locatedAsLast,
  rememberLocated,
  touchesLocation,
} from '../../geoip/person-location.js';

type Properties = Record<string, unknown>;

/** Event properties copied to the person as `$initial_<name>` the first time they are seen. */
const INITIAL_FROM_EVENT = [
  '$browser',
  '$browser_version',
  '$os',
  '$os_version',
  '$device_type',
  '$current_url',
  '$pathname',
  '$referrer',
  '$referring_domain',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'gclid',
  'fbclid',
];

/** Of those, the ones whose latest value is also kept (pages change every event, so they are not). */
const LATEST_FROM_EVENT = new Set(['$browser', '$browser_version', '$os', '$os_version', '$device_type']);

function isObject(value: unknown): value is Properties {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Applies the event's updates to `properties` in place; says whether anything changed. */
export function applyPersonUpdates(properties: Properties, eventProperties: Properties, located = false): boolean {
  let changed = false;
  const setOnce: Properties = {};
  const set: Properties = {};
  for (const key of INITIAL_FROM_EVENT) {
    const value = eventProperties[key];
    if (value === undefined || value === null) continue;
    setOnce[`$initial_${key.replace(/^\$/, '')}`] = value;
    if (LATEST_FROM_EVENT.has(key)) set[key] = value;
  }
  const clientSetOnce = isObject(eventProperties.$set_once) ? eventProperties.$set_once : null;
  const clientSet = isObject(eventProperties.$set) ? eventProperties.$set : null;
  if (clientSetOnce) Object.assign(setOnce, clientSetOnce);
  if (clientSet) Object.assign(set, clientSet);
  const unset = eventProperties.$unset;
  const unsetKeys = Array.isArray(unset) ? unset : isObject(unset) ? Object.keys(unset) : [];

  // The same address as the person's last located event: its location is already there, unless
  // the client's own updates touch those keys (then the transformation's values go on top again,
  // and the next event from that address applies them in full too).
  const touched =
    (clientSetOnce !== null && touchesLocation(Object.keys(clientSetOnce))) ||
    (clientSet !== null && touchesLocation(Object.keys(clientSet))) ||
    (unsetKeys.length > 0 && touchesLocation(unsetKeys));
  if (touched) forgetLocated(properties);
  const locating = located && (touched || !locatedAsLast(properties, eventProperties));

  // The transformation writes into the event's $set / $set_once, over what the client put there:
  // its $set_once goes first (taking the keys they share), its $set last.
  if (locating && applyInitialLocation(properties, eventProperties)) changed = true;
  for (const [key, value] of Object.entries(setOnce)) {
    if (key === '__proto__') continue;
    if (!Object.hasOwn(properties, key)) {
      properties[key] = value;
      changed = true;
    }
  }
  for (const [key, value] of Object.entries(set)) {
    if (key === '__proto__') continue;
    if (!sameValue(properties[key], value)) {
      properties[key] = value;
      changed = true;
    }
  }
  if (locating) {
    if (applyLatestLocation(properties, eventProperties)) changed = true;
    if (!touched) rememberLocated(properties, eventProperties);
  }
  for (const key of unsetKeys) {
    if (typeof key === 'string' && Object.hasOwn(properties, key)) {
      delete properties[key];
      changed = true;
    }
  }
  return changed;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}
