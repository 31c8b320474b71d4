// The shapes capture works with, from the request body to the row the event store keeps.

/** One event as a client sent it: any JSON object; nothing in it is trusted yet. */
export type RawEvent = Record<string, unknown>;

/** What a capture request carried once its body is decoded (before any per-event checks). */
export interface DecodedPayload {
  /** Events in the order they were sent. */
  events: RawEvent[];
  /** Envelope-level token (`api_key` or `token` of a batch envelope), if any. */
  envelopeToken: string | undefined;
  /** Envelope-level `sent_at`, else the `_` query parameter (ms epoch), as given. */
  sentAt: unknown;
  /** `historical_migration: true` on the envelope. */
  historicalMigration: boolean;
  /** Size of the decoded JSON text, when known: no event in it can be larger. */
  decodedBytes?: number;
}

/** An event that passed every check, normalised the way PostHog's ingestion does. */
export interface CapturedEvent {
  /** Canonical lowercase UUID: the client's, or a generated UUIDv7. */
  uuid: string;
  event: string;
  /** At most 200 characters. */
  distinctId: string;
  /** With top-level `$set` / `$set_once` merged into `properties.$set` / `properties.$set_once`. */
  properties: Record<string, unknown>;
  /** Microseconds since the Unix epoch, UTC, after clock-skew correction. */
  timestampUs: number;
  historicalMigration: boolean;
  /**
   * Capture located the event's `$ip` (its `$geoip_*` properties are the lookup's): the person
   * gets them as PostHog's GeoIP transformation's `$set` / `$set_once` would give them. Kept in the
   * capture log, so a replay updates the person the same way.
   */
  located?: true;
}
