// The rrweb data of a decoded /s/ request, per session, checked as PostHog's capture checks
// replay events (rust/capture v0_endpoint.rs, process_replay_events): every event needs a string
// `$session_id` of at most 100 characters, a distinct id and `$snapshot_data` (an array of rrweb
// events or one event; posthog-react-native and newer SDKs may send `$snapshot_items`).
// `$window_id` defaults to the session id, `$snapshot_source` to "web". One bad event refuses the
// whole request (400), before anything of it is stored.
import { InvalidPayloadError } from '../capture/capture-errors.js';
import { storableValue } from '../capture/storable.js';
import type { RawEvent } from '../capture/types.js';
import { sessionDirectoryName } from './block-store.js';

export const MAX_SESSION_ID_LENGTH = 100;
/** A file name's limit (ext4, XFS, APFS): a longer encoded id could never be stored, only retried. */
const MAX_SESSION_DIRECTORY_BYTES = 255;
/** posthog-js sends one session per request; more would fan one body out into that many fsync'd blocks. */
export const MAX_SESSIONS_PER_REQUEST = 100;
/**
 * Nesting an rrweb event may have: a full snapshot nests two levels per DOM level, so this is
 * far past real pages (PostHog's 128 for events would refuse deep ones), and well below where
 * JSON.stringify of the block overflows the stack (a 500 the SDK retried forever).
 */
export const MAX_SNAPSHOT_DEPTH = 1000;
/** `$snapshot_source` and `$lib` ("web", "posthog-react-native"): longer text is no label. */
const MAX_LABEL_LENGTH = 200;

/** One stored line: the window the rrweb event was recorded in, and the event (PostHog's blob line shape). */
export type SnapshotLine = [windowId: string, event: Record<string, unknown>];

export interface SessionSnapshots {
  sessionId: string;
  distinctId: string;
  source: string;
  library: string;
  lines: SnapshotLine[];
  /** `$snapshot` messages of the session in the request. */
  messages: number;
}

const invalid = (what: string) => new InvalidPayloadError(`Invalid payload: ${what}`);

/** Groups the request's snapshot events by session, in the order they were sent. */
export function snapshotsBySession(events: readonly RawEvent[], userAgent: string | undefined): SessionSnapshots[] {
  const sessions = new Map<string, SessionSnapshots>();
  for (const event of events) {
    const properties = (event.properties && typeof event.properties === 'object' && !Array.isArray(event.properties) ? event.properties : {}) as Record<string, unknown>;
    const sessionId = properties.$session_id;
    if (sessionId === undefined || sessionId === null) throw invalid('missing $session_id');
    // A lone surrogate cannot be percent-encoded into a directory or key name (URIError: a 500).
    if (typeof sessionId !== 'string' || sessionId === '' || sessionId.length > MAX_SESSION_ID_LENGTH || !sessionId.isWellFormed()) throw invalid('invalid $session_id');
    if (Buffer.byteLength(sessionDirectoryName(sessionId)) > MAX_SESSION_DIRECTORY_BYTES) throw invalid('invalid $session_id (too many characters that need encoding)');
    const distinctId = distinctIdOf(event, properties);
    if (distinctId === null) throw invalid('missing distinct_id');
    const data = properties.$snapshot_items ?? properties.$snapshot_data;
    const items = Array.isArray(data) ? data : data && typeof data === 'object' ? [data] : null;
    if (items === null) throw invalid('missing snapshot data');
    if (!items.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item))) throw invalid('snapshot data holds a value that is not an rrweb event');
    const windowId = typeof properties.$window_id === 'string' && properties.$window_id !== '' ? properties.$window_id : sessionId;
    let session = sessions.get(sessionId);
    if (!session) {
      if (sessions.size >= MAX_SESSIONS_PER_REQUEST) throw invalid(`a request holds snapshots of more than ${MAX_SESSIONS_PER_REQUEST} sessions`);
      session = {
        sessionId,
        distinctId,
        // Stored in every summary row and counted by no budget: kept to a label's length, storable.
        source: (typeof properties.$snapshot_source === 'string' ? properties.$snapshot_source : 'web').slice(0, MAX_LABEL_LENGTH).toWellFormed(),
        library: (typeof properties.$lib === 'string' ? properties.$lib : libraryFromUserAgent(userAgent)).slice(0, MAX_LABEL_LENGTH).toWellFormed(),
        lines: [],
        messages: 0,
      };
      sessions.set(sessionId, session);
    }
    session.messages++;
    // Depth checked (and lone surrogates repaired) before anything serialises the data again.
    for (const item of items) session.lines.push([windowId, storableValue(item, MAX_SNAPSHOT_DEPTH) as Record<string, unknown>]);
  }
  return [...sessions.values()];
}

function distinctIdOf(event: RawEvent, properties: Record<string, unknown>): string | null {
  const value = event.distinct_id ?? event.$distinct_id ?? properties.distinct_id;
  // Lone surrogates repaired as capture repairs events' (the summary row's text must be storable).
  if (typeof value === 'string' && value.trim() !== '') return value.slice(0, 200).toWellFormed();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** As PostHog: a user agent like `posthog-android/3.0` names the library; anything else is "web". */
function libraryFromUserAgent(userAgent: string | undefined): string {
  const first = userAgent?.split('/')[0] ?? '';
  return first.includes('posthog') ? first : 'web';
}
