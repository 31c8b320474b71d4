// Synthetic posthog-js traffic for the ingest benchmark (BENCH_SHAPE=posthog-js): $pageview,
// $autocapture and $pageleave with the properties posthog-js 1.4xx computes in a browser
// (test/fixtures/capture/posthog-js-plain.json and ../shared/reference/web-analytics.md §3), 2-3.5 KB
// each. posthog-js sends no $ip: each request is one visitor's queue flush, posted as posthog-js
// posts it (`/e/?compression=gzip-js`, a gzip'd JSON array), and carries the visitor's public
// address in X-Forwarded-For, as a proxy in front of Hoglet on loopback would add it.
import { gzipSync } from 'node:zlib';
import { publicAddressOf, seededRandom, uuidv7 } from './events.js';

export const WEB_LIB_VERSION = '1.449.2';
export const WEB_PATH = `/e/?compression=gzip-js&ver=${WEB_LIB_VERSION}`;

const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const between = (rand, low, high) => low + Math.floor(rand() * (high - low + 1));

const HOST = 'www.acme-analytics.io';
const PAGES = [
  ['/', 'Acme — Product analytics for teams'],
  ['/pricing', 'Pricing — Acme'],
  ['/features', 'Features — Acme'],
  ['/docs', 'Documentation — Acme'],
  ['/docs/getting-started/install', 'Install the snippet — Acme Docs'],
  ['/docs/api/events', 'Events API — Acme Docs'],
  ['/blog', 'Blog — Acme'],
  ['/blog/2026/11/how-we-cut-ingest-latency-in-half', 'How we cut ingest latency in half — Acme Blog'],
  ['/customers/northwind', 'Northwind ships weekly with Acme — Acme'],
  ['/signup', 'Create your account — Acme'],
];
const REFERRERS = [
  ['$direct', '$direct', null],
  ['https://www.google.com/', 'www.google.com', null],
  ['https://www.google.com/', 'www.google.com', { utm_source: 'google', utm_medium: 'cpc', utm_campaign: 'brand-q4', gclid: 'Cj0KCQiA4L67BhDUARIsADWrl7Hq3v2x' }],
  ['https://news.ycombinator.com/', 'news.ycombinator.com', null],
  ['https://www.bing.com/', 'www.bing.com', null],
  ['https://t.co/', 't.co', { utm_source: 'twitter', utm_medium: 'social', utm_campaign: 'launch-week' }],
  ['$direct', '$direct', { utm_source: 'newsletter', utm_medium: 'email', utm_campaign: 'november-digest', utm_content: 'hero-link' }],
];
const DEVICES = [
  {
    ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    os: 'Windows', osVersion: '10.0', browser: 'Chrome', browserVersion: 131, type: 'Desktop', screen: [1920, 1080], viewport: [1872, 958],
  },
  {
    ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
    os: 'Mac OS X', osVersion: '10.15.7', browser: 'Safari', browserVersion: 18.1, type: 'Desktop', screen: [1728, 1117], viewport: [1728, 992],
  },
  {
    ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
    os: 'iOS', osVersion: '18.1.0', browser: 'Mobile Safari', browserVersion: 18.1, type: 'Mobile', screen: [390, 844], viewport: [390, 664],
  },
  {
    ua: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
    os: 'Android', osVersion: '10.0.0', browser: 'Chrome', browserVersion: 131, type: 'Mobile', screen: [412, 915], viewport: [412, 783],
  },
  {
    ua: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
    os: 'Linux', osVersion: '', browser: 'Firefox', browserVersion: 133, type: 'Desktop', screen: [2560, 1440], viewport: [2560, 1309],
  },
];
const ZONES = [
  ['America/New_York', 300, 'en-US'], ['Europe/London', 0, 'en-GB'], ['Europe/Berlin', -60, 'de-DE'],
  ['Asia/Kolkata', -330, 'en-IN'], ['America/Sao_Paulo', 180, 'pt-BR'], ['Asia/Tokyo', -540, 'ja-JP'],
];
/** Clickable things of the site's pages, as posthog-js writes an element chain (innermost first). */
const CLICKS = [
  ['Start for free', 'a.btn.btn-primary:text="Start for free"nth-child="1"nth-of-type="1"href="/signup"attr__href="/signup"attr__class="btn btn-primary";div.hero-actions:nth-child="3"nth-of-type="2"attr__class="hero-actions";section.hero:nth-child="1"nth-of-type="1"attr__class="hero";main:nth-child="2"nth-of-type="1";body:nth-child="2"nth-of-type="1"'],
  ['Pricing', 'a.nav-link:text="Pricing"nth-child="3"nth-of-type="3"href="/pricing"attr__href="/pricing"attr__class="nav-link";li:nth-child="3"nth-of-type="3";ul.nav-list:nth-child="2"nth-of-type="1"attr__class="nav-list";nav.site-nav:nth-child="1"nth-of-type="1"attr__class="site-nav"attr__aria-label="Main";header:nth-child="1"nth-of-type="1";body:nth-child="2"nth-of-type="1"'],
  ['Copy', 'button.copy-button:text="Copy"nth-child="2"nth-of-type="1"attr__class="copy-button"attr__type="button"attr__data-attr="copy-snippet";div.code-block:nth-child="4"nth-of-type="2"attr__class="code-block";article.docs-content:nth-child="2"nth-of-type="1"attr__class="docs-content";main:nth-child="2"nth-of-type="1";body:nth-child="2"nth-of-type="1"'],
  ['Yearly', 'label.toggle:text="Yearly"nth-child="2"nth-of-type="2"attr__class="toggle"attr__for="billing-yearly";div.billing-switch:nth-child="1"nth-of-type="1"attr__class="billing-switch";section.plans:nth-child="2"nth-of-type="2"attr__class="plans";main:nth-child="2"nth-of-type="1";body:nth-child="2"nth-of-type="1"'],
];
const FLAGS = { 'new-pricing-page': 'test', 'docs-search-v2': true, 'signup-social-buttons': false };

/**
 * One visitor: device, zone, address and a distinct id (an anonymous posthog-js UUIDv7) fixed
 * for the run; a session whose campaign and entry page its first request sets.
 */
function makeVisitor(index, rand) {
  const device = pick(rand, DEVICES);
  const [zone, offset, language] = pick(rand, ZONES);
  const id = uuidv7();
  return { index, device, zone, offset, language, id, ip: publicAddressOf(index), session: null, page: 0, pageviewId: null, seen: 0 };
}

/** Makes posthog-js-shaped request bodies, one visitor's queue flush each, from `visitors` visitors. */
export class WebEventFactory {
  constructor({ visitors = 2_000, seed = 42, perRequest = 10 } = {}) {
    this.rand = seededRandom(seed);
    this.perRequest = perRequest;
    this.visitors = Array.from({ length: visitors }, (_, i) => makeVisitor(i, this.rand));
  }

  /** The properties posthog-js puts on every event of a visitor's session. */
  common(v, nowMs) {
    const { device, session } = v;
    const [path] = PAGES[v.page];
    const query = session.campaign ? `?${new URLSearchParams(Object.entries(session.campaign)).toString()}` : '';
    const url = `https://${HOST}${path}${v.page === session.entryPage ? query : ''}`;
    return {
      $os: device.os, $os_version: device.osVersion, $browser: device.browser, $device_type: device.type,
      $timezone: v.zone, $timezone_offset: v.offset, $current_url: url, $host: HOST, $pathname: path,
      $raw_user_agent: device.ua, $browser_version: device.browserVersion, $browser_language: v.language,
      $browser_language_prefix: v.language.slice(0, 2), $screen_height: device.screen[1], $screen_width: device.screen[0],
      $viewport_height: device.viewport[1], $viewport_width: device.viewport[0], $lib: 'web', $lib_version: WEB_LIB_VERSION,
      $insert_id: Math.floor(this.rand() * 2 ** 52).toString(36), $time: nowMs / 1000, distinct_id: v.id, $device_id: v.id,
      $initial_person_info: { r: session.referrer, u: session.entryUrl },
      $console_log_recording_enabled_server: false, $session_recording_network_payload_capture: { capturePerformance: false },
      $dead_clicks_enabled_server: false, $web_vitals_enabled_server: false, $exception_capture_enabled_server: false,
      $autocapture_disabled_server: false, $web_vitals_allowed_metrics: ['LCP', 'CLS', 'FCP', 'INP'],
      $replay_script_config: null, $recording_status: 'disabled', $configured_session_timeout_ms: 1800000,
      $active_feature_flags: Object.keys(FLAGS), ...Object.fromEntries(Object.entries(FLAGS).map(([k, val]) => [`$feature/${k}`, val])),
      $feature_flag_payloads: {}, $referrer: session.referrer, $referring_domain: session.referringDomain,
      ...(session.campaign ?? {}),
      token: this.token, $session_id: session.id, $window_id: session.windowId, $pageview_id: v.pageviewId,
      $session_entry_url: session.entryUrl, $session_entry_host: HOST, $session_entry_pathname: PAGES[session.entryPage][0],
      $session_entry_referrer: session.referrer, $session_entry_referring_domain: session.referringDomain,
      ...Object.fromEntries(Object.entries(session.campaign ?? {}).map(([k, val]) => [`$session_entry_${k}`, val])),
      $is_identified: false, $process_person_profile: true, $sdk_debug_retry_queue_size: 0,
      $lib_rate_limit_remaining_tokens: 98 - between(this.rand, 0, 20), $config_defaults: '2025-05-24',
    };
  }

  startSession(v, nowMs) {
    const [referrer, referringDomain, campaign] = pick(this.rand, REFERRERS);
    v.page = between(this.rand, 0, PAGES.length - 1);
    const query = campaign ? `?${new URLSearchParams(Object.entries(campaign)).toString()}` : '';
    v.session = {
      id: uuidv7(nowMs), windowId: uuidv7(nowMs), referrer, referringDomain, campaign,
      entryPage: v.page, entryUrl: `https://${HOST}${PAGES[v.page][0]}${query}`, pageStartMs: nowMs,
    };
  }

  /** The visitor's next events: $pageview, a click or two, $pageleave, the next page. */
  nextEvent(v, nowMs) {
    if (v.session === null || v.seen % 40 === 0) this.startSession(v, nowMs);
    const step = v.seen % 4;
    v.seen += 1;
    if (step === 0) {
      const previous = v.pageviewId;
      v.pageviewId = uuidv7(nowMs);
      const properties = { ...this.common(v, nowMs), title: PAGES[v.page][1] };
      if (previous) Object.assign(properties, { $prev_pageview_id: previous, $prev_pageview_pathname: PAGES[(v.page + 1) % PAGES.length][0] });
      const event = { uuid: v.pageviewId, event: '$pageview', properties };
      if (v.seen === 1) event.$set_once = { $initial_referrer: v.session.referrer, $initial_current_url: v.session.entryUrl };
      return event;
    }
    if (step < 3) {
      const [text, chain] = pick(this.rand, CLICKS);
      return {
        uuid: uuidv7(nowMs),
        event: '$autocapture',
        properties: { ...this.common(v, nowMs), $event_type: 'click', $ce_version: 1, $el_text: text, $elements_chain: chain },
      };
    }
    const [path] = PAGES[v.page];
    const properties = {
      ...this.common(v, nowMs),
      $prev_pageview_id: v.pageviewId, $prev_pageview_pathname: path, $prev_pageview_duration: between(this.rand, 2, 240) + 0.123,
      $prev_pageview_last_scroll: between(this.rand, 0, 4000), $prev_pageview_last_scroll_percentage: this.rand(),
      $prev_pageview_max_scroll: between(this.rand, 0, 4000), $prev_pageview_max_scroll_percentage: this.rand(),
      $prev_pageview_last_content: between(this.rand, 800, 5000), $prev_pageview_last_content_percentage: this.rand(),
      $prev_pageview_max_content: between(this.rand, 800, 5000), $prev_pageview_max_content_percentage: this.rand(),
    };
    v.page = between(this.rand, 0, PAGES.length - 1);
    return { uuid: uuidv7(nowMs), event: '$pageleave', properties };
  }

  /** One request: a visitor's flush of `perRequest` events, gzip'd JSON array, and their address. */
  requestBody(token, nowMs = Date.now()) {
    this.token = token;
    const v = this.visitors[Math.floor(this.rand() * this.visitors.length)];
    const events = new Array(this.perRequest);
    for (let i = 0; i < this.perRequest; i++) {
      const event = this.nextEvent(v, nowMs);
      event.timestamp = new Date(nowMs - (this.perRequest - i) * 300).toISOString();
      events[i] = event;
    }
    return { body: gzipSync(JSON.stringify(events)), forwardedFor: v.ip };
  }
}
