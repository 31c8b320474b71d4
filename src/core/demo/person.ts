// One simulated person's whole life on the demo site, in time order: anonymous visits, maybe a
// sign-up, then return visits, an upgrade, payments and perhaps a cancellation. Events are what
// posthog-js would send from their browser; subscription renewals come from the shop's backend
// (posthog-node), as a real product would send them.
import type { RawEvent } from '../capture/types.js';
import * as C from './catalog.js';
import { Random } from './random.js';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export interface TimedEvent {
  /** ms since the epoch; the same instant as `raw.timestamp`. */
  at: number;
  raw: RawEvent;
}

type Plan = 'free' | C.PaidPlan;
type Engagement = 'power' | 'regular' | 'casual';

/** How often each kind of user comes back, how likely they drift away, how likely they pay. */
const ENGAGEMENT: Record<Engagement, { gapDays: number; dormancy: number; upgrade: number; business: number }> = {
  power: { gapDays: 0.8, dormancy: 0.015, upgrade: 0.5, business: 0.35 },
  regular: { gapDays: 2.2, dormancy: 0.035, upgrade: 0.25, business: 0.2 },
  casual: { gapDays: 5, dormancy: 0.1, upgrade: 0.08, business: 0.1 },
};
const ENGAGEMENT_SHARE: readonly (readonly [Engagement, number])[] = [['power', 20], ['regular', 45], ['casual', 35]];

const HOURS = C.HOUR_WEIGHTS.map((w, h) => [h, w] as const);
const LOCALES = C.TIMEZONES.map(([timezone, language, w]) => [[timezone, language] as const, w] as const);
const channelNamed = (name: string): C.Channel => C.CHANNELS.find(([c]) => c.name === name)![0];
/** Where an anonymous visitor's second and later visits come from. */
const ANON_RETURN: readonly (readonly [C.Channel, number])[] = [[channelNamed('direct'), 65], [channelNamed('google'), 35]];

/** One browser visit: posthog-js keeps a session id and window id for it. */
interface Visit {
  sessionId: string;
  windowId: string;
  referrer: string;
  referringDomain: string;
  utm: { utm_source: string; utm_medium: string; utm_campaign: string } | undefined;
  /** `?utm_...` of the landing URL; posthog-js only sees it while the landing page is shown. */
  query: string;
  onLanding: boolean;
  path: string | undefined;
  pageviewId: string | undefined;
  pageviewAt: number;
}

export class Person {
  private readonly rng: Random;
  private readonly device: C.DeviceProfile;
  private readonly browserVersion: number;
  private readonly osVersion: string;
  private readonly userAgent: string;
  private readonly screen: readonly [number, number];
  /** Pixels of browser UI between the screen and the viewport. */
  private readonly browserChrome: number;
  private readonly timezone: string;
  private readonly language: string;
  private readonly channel: C.Channel;
  private readonly campaign: string | undefined;
  private readonly buffer: TimedEvent[] = [];

  /** Time of this person's latest event; every new event is strictly later. */
  private clock: number;
  private distinctId: string;
  private deviceId: string;
  private identified = false;
  private userId: string | undefined;
  private email = '';
  private name = '';
  private sawPricing = false;
  private firstPageview = true;
  private plan: Plan = 'free';
  private billing: C.BillingPeriod = 'monthly';
  private lastPaymentAt = 0;
  private paymentPending = false;

  constructor(
    seed: number,
    private readonly index: number,
    private readonly arrival: number,
    private readonly now: number,
    cameFromHackerNews: boolean,
  ) {
    this.rng = new Random(seed, index + 1);
    const rng = this.rng;
    this.device = rng.weighted(C.DEVICES);
    this.screen = rng.pick(this.device.screens);
    this.browserVersion = rng.pick(this.device.browserVersions);
    this.osVersion = rng.pick(this.device.osVersions);
    this.browserChrome = this.device.deviceType === 'Desktop' ? rng.int(80, 140) : rng.int(90, 180);
    this.userAgent = this.device.userAgent
      .replaceAll('{v}', String(this.browserVersion))
      .replaceAll('{os}', this.osVersion.replaceAll('.', '_'));
    [this.timezone, this.language] = rng.weighted(LOCALES);
    this.channel = cameFromHackerNews ? C.HACKER_NEWS : rng.weighted(C.CHANNELS);
    this.campaign = this.channel.utm ? rng.pick(this.channel.utm.campaigns) : undefined;
    this.clock = arrival - 1;
    this.distinctId = this.deviceId = rng.uuidv7(arrival);
  }

  /** This person's events in time order, none later than `now`. */
  *events(): Generator<TimedEvent> {
    for (const event of this.journey()) {
      if (event.at > this.now) return;
      yield event;
    }
  }

  private *journey(): Generator<TimedEvent> {
    const rng = this.rng;
    const mobile = this.device.deviceType !== 'Desktop';
    const willSignUp = rng.chance(0.26 * this.channel.signupLift * (mobile ? 0.6 : 1));
    // Most sign-ups look at pricing first, so the pricing -> sign-up funnel has something to show.
    const needPricing = willSignUp && rng.chance(0.75);
    const anonVisits = willSignUp ? (rng.chance(0.6) ? 1 : 2 + rng.geometric(0.6)) : 1 + rng.geometric(0.65);

    for (let i = 0; i < anonVisits; i++) {
      const first = i === 0;
      const at = first ? this.arrival : this.nextVisitAt(2.5);
      if (at > this.now) return;
      const channel = first ? this.channel : rng.weighted(ANON_RETURN);
      const v = this.startVisit(at, channel, first ? this.campaign : undefined);
      const goal = willSignUp && i === anonVisits - 1 ? 'signup' : 'browse';
      if (this.browseMarketing(v, rng.weighted(channel.landing), goal, needPricing)) {
        this.signUp(v);
        this.browseApp(v, 6);
      }
      this.endVisit(v);
      yield* this.flush();
    }
    if (this.userId === undefined) return;

    const kind = ENGAGEMENT[rng.weighted(ENGAGEMENT_SHARE)];
    const willUpgrade = rng.chance(kind.upgrade);
    // A good share of sign-ups never come back: the steep first step of a retention curve.
    let dormant = !willUpgrade && rng.chance(0.25);
    for (;;) {
      if (dormant) {
        // Free users just stop coming. Paying ones keep paying until they remember to cancel.
        if (this.plan === 'free') return;
        const cancelAt = this.nextVisitAt(20);
        yield* this.renewalsBefore(cancelAt);
        if (cancelAt > this.now) return;
        this.userVisit(cancelAt, 'cancel', kind.business);
        yield* this.flush();
        return;
      }
      const at = this.nextVisitAt(kind.gapDays);
      yield* this.renewalsBefore(at);
      if (at > this.now) return;
      let what: 'retry' | 'cancel' | 'upgrade' | 'browse' = 'browse';
      if (this.paymentPending) what = 'retry';
      else if (this.plan !== 'free' && rng.chance(0.025)) what = 'cancel';
      else if (this.plan === 'free' && willUpgrade && rng.chance(0.4)) what = 'upgrade';
      const churned = this.userVisit(at, what, kind.business);
      yield* this.flush();
      if (churned) return;
      dormant = rng.chance(kind.dormancy);
    }
  }

  private *flush(): Generator<TimedEvent> {
    yield* this.buffer;
    this.buffer.length = 0;
  }

  // ---- visits -------------------------------------------------------------------------------

  /** Start of the next visit: a waiting time, then a plausible hour, mostly on weekdays. */
  private nextVisitAt(meanDays: number): number {
    const rng = this.rng;
    let day = this.clock + rng.exponential(meanDays) * DAY;
    for (let tries = 0; ; tries++, day += DAY) {
      const dayStart = Math.floor(day / DAY) * DAY;
      const weekday = new Date(dayStart).getUTCDay();
      if (tries < 3 && (weekday === 0 || weekday === 6) && rng.chance(0.45)) continue;
      const at = dayStart + rng.weighted(HOURS) * HOUR + rng.int(0, HOUR - 1);
      if (at > this.clock + 20 * MINUTE) return at;
    }
  }

  private startVisit(at: number, channel: C.Channel, campaign: string | undefined): Visit {
    this.clock = at;
    const utm = channel.utm && campaign !== undefined
      ? { utm_source: channel.utm.source, utm_medium: channel.utm.medium, utm_campaign: campaign }
      : undefined;
    return {
      sessionId: this.rng.uuidv7(at),
      windowId: this.rng.uuidv7(at),
      referrer: channel.referrer,
      referringDomain: channel.referringDomain,
      utm,
      query: utm ? `?${new URLSearchParams(utm).toString()}` : '',
      onLanding: true,
      path: undefined,
      pageviewId: undefined,
      pageviewAt: at,
    };
  }

  /** Most visits end with the tab closing, which posthog-js reports as `$pageleave`. */
  private endVisit(v: Visit): void {
    if (!this.rng.chance(0.6)) return;
    this.advance(this.dwell(v.path ?? '/'));
    this.emit(v, '$pageleave', this.prevPageview(v));
  }

  /** Walks the marketing site; returns true when the visitor reaches /signup meaning to sign up. */
  private browseMarketing(v: Visit, landing: string, goal: 'signup' | 'browse', needPricing: boolean): boolean {
    const rng = this.rng;
    let key = landing;
    for (let steps = 1; ; steps++) {
      const path = key === 'blog-post' ? `/blog/${rng.pick(C.BLOG_SLUGS)}` : key;
      this.pageview(v, path);
      if (path === '/pricing') this.sawPricing = true;
      if (goal === 'signup' && path === '/signup') return true;
      let next = rng.weighted(C.MARKETING_NEXT[path.startsWith('/blog/') ? 'blog-post' : path]!);
      if (goal === 'signup') {
        if (next === 'exit' || steps >= 8) next = '/signup';
        if (next === '/signup' && needPricing && !this.sawPricing) next = '/pricing';
      } else if (next === 'exit' || steps >= 10) {
        return false;
      }
      this.advance(this.dwell(path));
      if (next === '/signup') {
        this.click(v, 'a', ['btn', 'btn-primary'], 'Get started free', '/signup');
        this.advance(rng.uniform(300, 900));
      }
      key = next;
    }
  }

  private signUp(v: Visit): void {
    const rng = this.rng;
    this.advance(rng.uniform(20, 90) * SECOND); // filling in the form
    this.click(v, 'button', ['btn', 'btn-primary', 'signup-submit'], 'Create account');
    this.advance(rng.uniform(500, 1500));
    const first = rng.pick(C.FIRST_NAMES);
    const last = rng.pick(C.LAST_NAMES);
    const suffix = rng.chance(0.5) ? String(rng.int(1, 99)) : '';
    this.name = `${first} ${last}`;
    this.email = `${first}.${last}${suffix}@${rng.weighted(C.EMAIL_DOMAINS)}`.toLowerCase();
    this.userId = `user_${this.index + 1}`;
    const anonymousId = this.distinctId;
    this.distinctId = this.userId;
    this.identified = true;
    this.emit(v, '$identify', {
      $anon_distinct_id: anonymousId,
      $set: { email: this.email, name: this.name, plan: 'free' },
      $set_once: { signup_date: new Date(this.clock).toISOString().slice(0, 10) },
    });
    this.advance(rng.uniform(100, 400));
    this.emit(v, 'signed_up', {
      signup_method: rng.weighted([['email', 55], ['google', 35], ['github', 10]] as const),
      plan: 'free',
    });
    this.advance(rng.uniform(800, 2500));
    this.pageview(v, '/app');
    // Onboarding nudges new users to build their first dashboard.
    this.advance(this.dwell('/app'));
    this.pageview(v, '/app/dashboard');
    if (rng.chance(0.6)) this.dashboardCreated(v);
  }

  /**
   * A signed-up user's return visit. Returns true when they cancelled their subscription: the
   * end of their story.
   */
  private userVisit(at: number, what: 'retry' | 'cancel' | 'upgrade' | 'browse', businessShare: number): boolean {
    const rng = this.rng;
    // Now and then they come from another browser (or cleared cookies): anonymous until login.
    const freshBrowser = rng.chance(0.08);
    if (freshBrowser) {
      this.distinctId = this.deviceId = rng.uuidv7(at);
      this.identified = false;
    }
    const channel = freshBrowser ? channelNamed('direct') : rng.weighted(C.RETURN_CHANNELS);
    const v = this.startVisit(at, channel, channel.utm ? rng.pick(channel.utm.campaigns) : undefined);
    if (freshBrowser) {
      this.pageview(v, '/login');
      this.advance(rng.uniform(8, 40) * SECOND);
      this.click(v, 'button', ['btn', 'btn-primary', 'login-submit'], 'Log in');
      this.advance(rng.uniform(400, 1200));
      const anonymousId = this.distinctId;
      this.distinctId = this.userId!;
      this.identified = true;
      this.emit(v, '$identify', { $anon_distinct_id: anonymousId, $set: { email: this.email, name: this.name } });
      this.advance(rng.uniform(500, 1500));
      this.pageview(v, '/app');
    } else {
      const landing = rng.weighted(channel.landing);
      this.pageview(v, landing);
      if (!landing.startsWith('/app')) {
        this.advance(this.dwell(landing));
        this.click(v, 'a', ['nav-link'], 'Open app', '/app');
        this.advance(rng.uniform(300, 900));
        this.pageview(v, '/app');
      }
    }

    let churned = false;
    if (what === 'upgrade') this.upgrade(v, businessShare);
    else if (what === 'retry') churned = this.retryPayment(v);
    else if (what === 'cancel') churned = this.cancel(v, rng.pick(['too_expensive', 'missing_features', 'switched_tool', 'no_longer_needed']));
    // A cancellation is the last thing a churned user does: not even a $pageleave after it.
    if (churned) return true;
    this.browseApp(v, 20);
    this.endVisit(v);
    return false;
  }

  // ---- in the app ---------------------------------------------------------------------------

  private browseApp(v: Visit, maxPages: number): void {
    const rng = this.rng;
    for (let pages = 1; pages < maxPages; pages++) {
      const path = v.path ?? '/app';
      this.featureUse(v, path);
      const next = rng.weighted(C.APP_NEXT[path] ?? C.APP_NEXT['/app']!);
      if (next === 'exit') return;
      this.advance(this.dwell(path));
      this.pageview(v, next);
    }
  }

  /** The product's own events, each tagged with the plan so trends can break down by it. */
  private featureUse(v: Visit, path: string): void {
    const rng = this.rng;
    if ((path === '/app/dashboard' || path === '/app/reports') && rng.chance(0.15)) {
      // Fiddling with filters: autocapture clicks give actions something to match.
      this.advance(rng.uniform(3, 40) * SECOND);
      this.click(v, 'button', ['btn', 'btn-secondary', 'date-filter'], rng.pick(['Last 7 days', 'Last 30 days', 'This month']));
    }
    if (path === '/app/dashboard' && rng.chance(0.1)) {
      this.dashboardCreated(v);
    } else if (path === '/app/reports' && rng.chance(0.22)) {
      this.advance(rng.uniform(5, 90) * SECOND);
      this.emit(v, 'report_exported', {
        format: rng.weighted([['csv', 5], ['pdf', 3], ['png', 2]] as const),
        report_type: rng.pick(['funnel', 'trend', 'retention', 'paths']),
        plan: this.plan,
      });
    } else if (path === '/app/team' && rng.chance(0.3)) {
      this.advance(rng.uniform(10, 60) * SECOND);
      this.emit(v, 'teammate_invited', { role: rng.weighted([['member', 4], ['admin', 1]] as const), plan: this.plan });
    } else if (path === '/app/settings/billing' && this.plan !== 'free' && !this.paymentPending && rng.chance(0.25)) {
      this.advance(rng.uniform(10, 60) * SECOND);
      this.click(v, 'button', ['btn', 'add-seats'], 'Add seats');
      this.advance(rng.uniform(5, 30) * SECOND);
      const seats = rng.weighted([[1, 5], [2, 3], [3, 2], [5, 1]] as const);
      this.purchase(v, 'extra_seats', seats * C.SEAT_PRICE, { seats });
    }
  }

  private dashboardCreated(v: Visit): void {
    this.advance(this.rng.uniform(10, 90) * SECOND);
    this.emit(v, 'dashboard_created', {
      template: this.rng.weighted([['blank', 3], ['web_analytics', 3], ['product_kpis', 2], ['revenue', 1]] as const),
      plan: this.plan,
    });
  }

  private upgrade(v: Visit, businessShare: number): void {
    const rng = this.rng;
    this.advance(this.dwell('/app'));
    this.click(v, 'a', ['btn', 'upgrade-cta'], 'Upgrade', '/pricing');
    this.advance(rng.uniform(300, 900));
    this.pageview(v, '/pricing');
    this.sawPricing = true;
    const plan: C.PaidPlan = rng.chance(businessShare) ? 'business' : 'pro';
    this.billing = rng.chance(0.25) ? 'yearly' : 'monthly';
    this.advance(rng.uniform(20, 120) * SECOND);
    this.click(v, 'button', ['btn', 'btn-primary', `choose-${plan}`], `Choose ${plan === 'pro' ? 'Pro' : 'Business'}`);
    this.advance(rng.uniform(300, 900));
    this.pageview(v, '/checkout');
    this.advance(rng.uniform(3, 15) * SECOND);
    this.emit(v, 'upgraded_plan', { plan, previous_plan: 'free', billing_period: this.billing, $set: { plan } });
    this.plan = plan;
    this.advance(rng.uniform(20, 120) * SECOND); // card details
    if (rng.chance(0.82)) {
      // A campaign's discount applies to the first payment only.
      const discount = (this.campaign !== undefined && C.DISCOUNTS[this.campaign]) || 0;
      const price = C.PRICES[plan][this.billing];
      this.purchase(v, 'subscription', Math.round(price * (1 - discount) * 100) / 100, discount ? { coupon: this.campaign } : {});
    } else {
      this.emit(v, 'payment_failed', { plan, reason: rng.pick(['card_declined', 'insufficient_funds', '3ds_failed']) });
      this.paymentPending = true;
    }
    this.advance(rng.uniform(1, 4) * SECOND);
    this.pageview(v, '/app/dashboard');
  }

  /** After a failed payment: pay on the next visit, or give up and cancel. */
  private retryPayment(v: Visit): boolean {
    const rng = this.rng;
    this.advance(this.dwell('/app'));
    this.pageview(v, '/app/settings/billing');
    this.advance(rng.uniform(20, 90) * SECOND);
    if (!rng.chance(0.4)) return this.cancel(v, 'payment_failed', false);
    this.paymentPending = false;
    this.purchase(v, 'subscription', C.PRICES[this.plan as C.PaidPlan][this.billing], {});
    return false;
  }

  private cancel(v: Visit, reason: string, navigate = true): boolean {
    const rng = this.rng;
    if (navigate) {
      this.advance(this.dwell('/app'));
      this.pageview(v, '/app/settings');
      this.advance(this.dwell('/app/settings'));
      this.pageview(v, '/app/settings/billing');
    }
    this.advance(rng.uniform(10, 60) * SECOND);
    this.click(v, 'button', ['btn', 'btn-danger'], 'Cancel subscription');
    this.advance(rng.uniform(2, 20) * SECOND);
    this.emit(v, 'cancelled_subscription', { plan: this.plan, billing_period: this.billing, reason, $set: { plan: 'free' } });
    this.plan = 'free';
    this.paymentPending = false;
    return true;
  }

  private purchase(v: Visit, product: string, amount: number, extra: Record<string, unknown>): void {
    this.emit(v, 'purchase', {
      amount,
      currency: 'USD',
      product,
      plan: this.plan,
      billing_period: this.billing,
      order_id: `ord_${this.rng.hex(6)}`,
      ...extra,
    });
    if (product === 'subscription') this.lastPaymentAt = this.clock;
  }

  /** Monthly renewals charged by the backend between visits (posthog-node events). */
  private *renewalsBefore(limit: number): Generator<TimedEvent> {
    const until = Math.min(limit, this.now);
    while (this.plan !== 'free' && !this.paymentPending && this.billing === 'monthly' && this.lastPaymentAt + 30 * DAY < until) {
      this.clock = Math.max(this.clock + SECOND, this.lastPaymentAt + 30 * DAY);
      this.emit(undefined, 'purchase', {
        amount: C.PRICES[this.plan][this.billing],
        currency: 'USD',
        product: 'subscription',
        plan: this.plan,
        billing_period: this.billing,
        renewal: true,
        order_id: `ord_${this.rng.hex(6)}`,
        $lib: 'posthog-node',
        $lib_version: C.NODE_LIB_VERSION,
      });
      this.lastPaymentAt = this.clock;
      yield* this.flush();
    }
  }

  // ---- event building -----------------------------------------------------------------------

  private pageview(v: Visit, path: string): void {
    const props: Record<string, unknown> = { $title: C.pageTitle(path), ...this.prevPageview(v) };
    if (v.path !== undefined) v.onLanding = false;
    v.path = path;
    v.pageviewAt = this.clock;
    const uuid = this.rng.uuidv7(this.clock);
    v.pageviewId = uuid;
    if (this.firstPageview) {
      // posthog-js records where a person first came from, once.
      this.firstPageview = false;
      const initial: Record<string, unknown> = {
        $initial_referrer: v.referrer,
        $initial_referring_domain: v.referringDomain,
        $initial_current_url: `${C.ORIGIN}${path}${v.query}`,
        $initial_pathname: path,
      };
      for (const [key, value] of Object.entries(v.utm ?? {})) initial[`$initial_${key}`] = value;
      props.$set_once = initial;
    }
    this.emit(v, '$pageview', props, uuid);
  }

  private prevPageview(v: Visit): Record<string, unknown> {
    if (v.path === undefined) return {};
    return {
      $prev_pageview_pathname: v.path,
      $prev_pageview_duration: Math.round((this.clock - v.pageviewAt) / 100) / 10,
    };
  }

  /** A light `$autocapture` click, with the element chain posthog-js would record. */
  private click(v: Visit, tag: string, classes: string[], text: string, href?: string): void {
    const cls = classes.join(' ');
    const hrefAttrs = href === undefined ? '' : `attr__href="${href}"href="${href}"`;
    const chain =
      `${tag}.${classes.join('.')}:attr__class="${cls}"${hrefAttrs}nth-child="1"nth-of-type="1"text="${text}";` +
      'div.container:attr__class="container"nth-child="2"nth-of-type="1";body:nth-child="2"nth-of-type="1"';
    this.emit(v, '$autocapture', { $event_type: 'click', $el_text: text, $elements_chain: chain });
  }

  /** Seconds-to-minutes on a page, longer on blog posts and in the app. */
  private dwell(path: string): number {
    const rng = this.rng;
    const mean = path.startsWith('/blog/') ? 110 : path.startsWith('/app') ? 50 : 30;
    return Math.min(3 * SECOND + rng.exponential(mean) * SECOND, 8 * MINUTE);
  }

  private advance(ms: number): void {
    this.clock += Math.max(1, Math.round(ms));
  }

  private emit(v: Visit | undefined, event: string, props: Record<string, unknown>, uuid?: string): void {
    const at = this.clock;
    const properties = v === undefined ? props : Object.assign(this.webProps(v, at), props);
    this.buffer.push({
      at,
      raw: {
        event,
        distinct_id: this.distinctId,
        properties,
        timestamp: new Date(at).toISOString(),
        uuid: uuid ?? this.rng.uuidv7(at),
      },
    });
  }

  /** What posthog-js attaches to every event from the browser. */
  private webProps(v: Visit, at: number): Record<string, unknown> {
    // Written out as one literal rather than spreads: V8 builds it far faster, and it is the
    // hot path (one per event).
    const d = this.device;
    const path = v.path ?? '/';
    const props: Record<string, unknown> = {
      $os: d.os,
      $os_version: this.osVersion,
      $browser: d.browser,
      $browser_version: this.browserVersion,
      $device_type: d.deviceType,
      $raw_user_agent: this.userAgent,
      $screen_height: this.screen[1],
      $screen_width: this.screen[0],
      $viewport_height: this.screen[1] - this.browserChrome,
      $viewport_width: this.screen[0],
      $current_url: v.onLanding ? `${C.ORIGIN}${path}${v.query}` : `${C.ORIGIN}${path}`,
      $host: C.HOST,
      $pathname: path,
      $browser_language: this.language,
      $timezone: this.timezone,
      $referrer: v.referrer,
      $referring_domain: v.referringDomain,
      $lib: 'web',
      $lib_version: C.WEB_LIB_VERSION,
      $device_id: this.deviceId,
      $is_identified: this.identified,
      $session_id: v.sessionId,
      $window_id: v.windowId,
      // Every visit opens with a pageview, so later events always have one to point at.
      $pageview_id: v.pageviewId,
      $time: at / 1000,
    };
    if (v.onLanding && v.utm) {
      props.utm_source = v.utm.utm_source;
      props.utm_medium = v.utm.utm_medium;
      props.utm_campaign = v.utm.utm_campaign;
    }
    return props;
  }
}
