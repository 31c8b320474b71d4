// Synthetic posthog-node traffic for the ingest benchmark: events shaped like the ones
// posthog-node 5 puts in a /batch/ request, each with a fresh UUIDv7, from a fixed pool of users.
// Values come from a seeded generator so every run sends the same mix; uuids and times are live.
import { randomFillSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** The version of posthog-node installed as a dev dependency, sent as `$lib_version`. */
export const LIB_VERSION = (() => {
  try {
    const url = new URL('../../node_modules/posthog-node/package.json', import.meta.url);
    return JSON.parse(readFileSync(url, 'utf8')).version;
  } catch {
    return '5.0.0';
  }
})();

export const USER_AGENT = `posthog-node/${LIB_VERSION}`;

// ---------------------------------------------------------------------------------------------
// UUIDv7: 48-bit millisecond time, a 12-bit per-millisecond sequence (so uuids made in one process
// never repeat), then random bits. Randomness is drawn from a refilled buffer: one
// crypto call per few hundred uuids keeps body generation fast.

const random = Buffer.alloc(16 * 1024);
let randomAt = random.length;
let lastMs = 0;
let sequence = 0;

function randomHex(bytes) {
  if (randomAt + bytes > random.length) {
    randomFillSync(random);
    randomAt = 0;
  }
  const hex = random.toString('hex', randomAt, randomAt + bytes);
  randomAt += bytes;
  return hex;
}

export function uuidv7(now = Date.now()) {
  if (now > lastMs) {
    lastMs = now;
    sequence = 0;
  } else if (++sequence > 0xfff) {
    lastMs += 1; // sequence used up: borrow the next millisecond
    sequence = 0;
  }
  const time = lastMs.toString(16).padStart(12, '0');
  const rest = randomHex(8);
  const variant = (0x8 | (parseInt(rest[0], 16) & 0x3)).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8)}-7${sequence.toString(16).padStart(3, '0')}-${variant}${rest.slice(1, 4)}-${rest.slice(4)}`;
}

// ---------------------------------------------------------------------------------------------
// Seeded values (mulberry32): the same sequence of events, users and properties in every run.

export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const between = (rand, low, high) => low + Math.floor(rand() * (high - low + 1));

const ENDPOINTS = ['/v1/orders', '/v1/orders/:id', '/v1/users/:id', '/v1/search', '/v1/checkout', '/v1/webhooks/stripe'];
const FEATURES = ['export_csv', 'dashboards', 'api_keys', 'sso', 'alerts', 'bulk_edit'];
const PLANS = ['free', 'starter', 'pro', 'enterprise'];
const TEMPLATES = ['welcome', 'receipt', 'password_reset', 'weekly_digest', 'trial_ending'];

/**
 * What a backend sends through posthog-node: mostly request and business events, a few of them
 * with `$set` person properties (the plan), as `client.capture({ ..., properties: { $set } })` does.
 */
const KINDS = [
  {
    weight: 45,
    event: 'api_request',
    properties: (rand) => ({
      endpoint: pick(rand, ENDPOINTS),
      method: pick(rand, ['GET', 'GET', 'GET', 'POST', 'PATCH', 'DELETE']),
      status_code: pick(rand, [200, 200, 200, 200, 201, 204, 400, 404, 500]),
      duration_ms: between(rand, 3, 900),
      region: pick(rand, ['us-east-1', 'eu-west-1']),
    }),
  },
  {
    weight: 20,
    event: 'feature_used',
    properties: (rand) => ({ feature: pick(rand, FEATURES), plan: pick(rand, PLANS), workspace_id: `ws_${between(rand, 1, 2000)}` }),
  },
  {
    weight: 15,
    event: 'email_sent',
    properties: (rand) => ({ template: pick(rand, TEMPLATES), campaign_id: `cmp_${between(rand, 1, 40)}`, provider: 'ses' }),
  },
  {
    weight: 12,
    event: 'order_completed',
    properties: (rand) => ({
      order_id: `ord_${between(rand, 100000, 999999)}`,
      revenue: between(rand, 500, 50000) / 100,
      currency: pick(rand, ['USD', 'USD', 'EUR', 'GBP']),
      items: between(rand, 1, 8),
      coupon: rand() < 0.2 ? 'SPRING24' : null,
    }),
  },
  {
    weight: 5,
    event: 'subscription_changed',
    properties: (rand) => {
      const plan = pick(rand, PLANS);
      return { plan, previous_plan: pick(rand, PLANS), billing_period: pick(rand, ['monthly', 'yearly']), $set: { plan } };
    },
  },
  {
    weight: 3,
    event: 'user_signed_up',
    properties: (rand) => ({
      signup_method: pick(rand, ['email', 'google', 'github']),
      referrer: pick(rand, ['ads', 'organic', 'partner']),
      $set_once: { first_seen_plan: 'free' },
    }),
  },
];
const TOTAL_WEIGHT = KINDS.reduce((sum, kind) => sum + kind.weight, 0);

function pickKind(rand) {
  let roll = rand() * TOTAL_WEIGHT;
  for (const kind of KINDS) {
    roll -= kind.weight;
    if (roll < 0) return kind;
  }
  return KINDS[KINDS.length - 1];
}

/** First octets of busy public IPv4 space (no private, loopback or documentation ranges). */
const PUBLIC_FIRST_OCTETS = [2, 5, 8, 12, 24, 31, 37, 41, 45, 46, 50, 62, 66, 71, 77, 81, 85, 89, 91, 93, 95, 103, 109, 113, 117, 122, 133, 151, 154, 177, 185, 186, 187, 190, 196, 200, 201, 212, 213, 217];

/** A user's own public address (one in ten IPv6), the same in every run. */
export function publicAddressOf(user) {
  const h = Math.imul(user + 1, 2654435761) >>> 0;
  if (user % 10 === 9) return `2a0${h % 10}:${((h >>> 4) & 0xffff).toString(16)}:${((h >>> 12) & 0xffff).toString(16)}::${(user & 0xffff).toString(16)}`;
  return `${PUBLIC_FIRST_OCTETS[h % PUBLIC_FIRST_OCTETS.length]}.${(h >>> 8) & 255}.${(h >>> 16) & 255}.${(h >>> 24) & 255}`;
}

/**
 * Makes posthog-node-shaped events. `nowMs` is the batch's send time; each event happened up to
 * 10 s earlier (posthog-node flushes its queue every 10 s by default, or every 20 events).
 */
export class EventFactory {
  /** `ips`: each user's events carry a public `$ip` of theirs and ask for GeoIP (as posthog-node
   * does when a server forwards its visitor's address with geoip left on). */
  constructor({ users = 10_000, seed = 42, ips = false } = {}) {
    this.users = users;
    this.rand = seededRandom(seed);
    this.ips = ips;
  }

  /** A user index in [0, users): the distinct id is `user-<index>`. */
  user() {
    return Math.floor(this.rand() * this.users);
  }

  event(nowMs, user = this.user()) {
    const kind = pickKind(this.rand);
    const timestampMs = nowMs - Math.floor(this.rand() * 10_000);
    return {
      event: kind.event,
      distinct_id: `user-${user}`,
      properties: {
        ...kind.properties(this.rand),
        $lib: 'posthog-node',
        $lib_version: LIB_VERSION,
        $is_server: true,
        ...(this.ips ? { $ip: publicAddressOf(user) } : { $geoip_disable: true }),
      },
      timestamp: new Date(timestampMs).toISOString(),
      uuid: uuidv7(),
    };
  }

  events(count, nowMs) {
    const events = new Array(count);
    for (let i = 0; i < count; i++) events[i] = this.event(nowMs);
    return events;
  }

  /** A /batch/ body as posthog-node sends it: JSON envelope, gzip'd. */
  batchBody(token, size, nowMs = Date.now()) {
    const payload = { api_key: token, batch: this.events(size, nowMs), sent_at: new Date(nowMs).toISOString() };
    return gzipSync(JSON.stringify(payload));
  }

  /** A single-event /e/ body: one event as plain JSON with the token beside it (as curl or a
   * minimal client posts it; posthog-node itself always uses /batch/). */
  singleBody(token, nowMs = Date.now()) {
    const event = this.event(nowMs);
    event.timestamp = new Date(nowMs).toISOString();
    return JSON.stringify({ api_key: token, ...event });
  }
}
