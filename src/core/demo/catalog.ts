// The fixed ingredients of the demo product: its pages, its visitors' devices, where they come
// from, and what it sells. Weights are relative; they only need to look plausible in a chart.

export const HOST = 'demo.hoglet.dev';
export const ORIGIN = `https://${HOST}`;
/** The posthog-js release the generated events claim to come from. */
export const WEB_LIB_VERSION = '1.236.1';
export const NODE_LIB_VERSION = '5.8.0';

export const BLOG_SLUGS = [
  'why-we-built-hoglet',
  'funnels-101',
  'retention-without-the-math',
  'self-hosting-analytics',
  'our-pricing-explained',
  'product-analytics-for-small-teams',
] as const;

/** Page titles, as `document.title` would be. */
export function pageTitle(path: string): string {
  if (path.startsWith('/blog/')) {
    const slug = path.slice('/blog/'.length).replace(/-/g, ' ');
    return `${slug[0]!.toUpperCase()}${slug.slice(1)} | Hoglet blog`;
  }
  const titles: Record<string, string> = {
    '/': 'Hoglet: product analytics for small teams',
    '/features': 'Features | Hoglet',
    '/pricing': 'Pricing | Hoglet',
    '/blog': 'Blog | Hoglet',
    '/about': 'About us | Hoglet',
    '/signup': 'Create your account | Hoglet',
    '/login': 'Log in | Hoglet',
    '/checkout': 'Checkout | Hoglet',
  };
  return titles[path] ?? 'Hoglet app';
}

/** Marketing-site navigation: page -> where visitors go next ('exit' ends the visit). */
export const MARKETING_NEXT: Record<string, readonly (readonly [string, number])[]> = {
  '/': [['/features', 3], ['/pricing', 3], ['/blog', 1.5], ['/signup', 1.5], ['/about', 0.5], ['exit', 3]],
  '/features': [['/pricing', 4], ['/signup', 2], ['/', 1], ['exit', 3]],
  '/pricing': [['/signup', 3], ['/features', 1], ['/', 0.5], ['exit', 4]],
  '/blog': [['blog-post', 5], ['/', 1], ['exit', 2]],
  'blog-post': [['/blog', 1], ['/', 1.5], ['/features', 1], ['/pricing', 0.7], ['exit', 5]],
  '/about': [['/', 1], ['/pricing', 1], ['exit', 2]],
  '/signup': [['/pricing', 1], ['/', 0.5], ['exit', 3]],
};

/** In-app navigation for signed-up users. */
export const APP_NEXT: Record<string, readonly (readonly [string, number])[]> = {
  '/app': [['/app/dashboard', 6], ['/app/reports', 2], ['exit', 0.5]],
  '/app/dashboard': [['/app/reports', 3], ['/app/dashboard', 2.5], ['/app/team', 0.6], ['/app/settings', 0.6], ['exit', 1]],
  '/app/reports': [['/app/dashboard', 2], ['/app/reports', 2], ['exit', 0.9]],
  '/app/team': [['/app/dashboard', 1], ['/app/settings', 0.5], ['exit', 1]],
  '/app/settings': [['/app/settings/billing', 1], ['/app/dashboard', 1], ['exit', 1]],
  '/app/settings/billing': [['/app/dashboard', 1], ['exit', 1]],
};

export interface DeviceProfile {
  browser: string;
  os: string;
  deviceType: 'Desktop' | 'Mobile' | 'Tablet';
  browserVersions: readonly number[];
  osVersions: readonly string[];
  screens: readonly (readonly [number, number])[];
  /** `{v}` is the browser version, `{os}` the OS version (dots or underscores as the UA writes it). */
  userAgent: string;
}

// Browser and OS names as posthog-js detects them.
export const DEVICES: readonly (readonly [DeviceProfile, number])[] = [
  [{ browser: 'Chrome', os: 'Windows', deviceType: 'Desktop', browserVersions: [129, 130, 131, 132], osVersions: ['10.0'],
    screens: [[1920, 1080], [1366, 768], [2560, 1440]],
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{v}.0.0.0 Safari/537.36' }, 28],
  [{ browser: 'Chrome', os: 'Mac OS X', deviceType: 'Desktop', browserVersions: [130, 131, 132], osVersions: ['14.6.1', '15.1.0', '15.2.0'],
    screens: [[1512, 982], [1440, 900], [1728, 1117]],
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{v}.0.0.0 Safari/537.36' }, 18],
  [{ browser: 'Safari', os: 'Mac OS X', deviceType: 'Desktop', browserVersions: [17.6, 18.1, 18.2], osVersions: ['14.6.1', '15.1.0', '15.2.0'],
    screens: [[1512, 982], [1440, 900]],
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/{v} Safari/605.1.15' }, 9],
  [{ browser: 'Firefox', os: 'Windows', deviceType: 'Desktop', browserVersions: [132, 133, 134], osVersions: ['10.0'],
    screens: [[1920, 1080], [1536, 864]],
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:{v}.0) Gecko/20100101 Firefox/{v}.0' }, 6],
  [{ browser: 'Firefox', os: 'Linux', deviceType: 'Desktop', browserVersions: [132, 133, 134], osVersions: [''],
    screens: [[1920, 1080], [2560, 1440]],
    userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:{v}.0) Gecko/20100101 Firefox/{v}.0' }, 3],
  [{ browser: 'Microsoft Edge', os: 'Windows', deviceType: 'Desktop', browserVersions: [130, 131, 132], osVersions: ['10.0'],
    screens: [[1920, 1080], [1536, 864]],
    userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{v}.0.0.0 Safari/537.36 Edg/{v}.0.0.0' }, 6],
  [{ browser: 'Mobile Safari', os: 'iOS', deviceType: 'Mobile', browserVersions: [17.6, 18.1, 18.2], osVersions: ['17.6.1', '18.1.1', '18.2.0'],
    screens: [[390, 844], [393, 852], [430, 932]],
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS {os} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/{v} Mobile/15E148 Safari/604.1' }, 14],
  [{ browser: 'Chrome', os: 'Android', deviceType: 'Mobile', browserVersions: [130, 131, 132], osVersions: ['13', '14', '15'],
    screens: [[412, 915], [384, 854], [360, 800]],
    userAgent: 'Mozilla/5.0 (Linux; Android {os}; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{v}.0.0.0 Mobile Safari/537.36' }, 10],
  [{ browser: 'Samsung Internet', os: 'Android', deviceType: 'Mobile', browserVersions: [26, 27], osVersions: ['14'],
    screens: [[384, 854], [412, 915]],
    userAgent: 'Mozilla/5.0 (Linux; Android {os}; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/{v}.0 Chrome/125.0.0.0 Mobile Safari/537.36' }, 2],
  [{ browser: 'Mobile Safari', os: 'iOS', deviceType: 'Tablet', browserVersions: [17.6, 18.1], osVersions: ['17.6.1', '18.1.1'],
    screens: [[820, 1180], [1024, 1366]],
    userAgent: 'Mozilla/5.0 (iPad; CPU OS {os} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/{v} Mobile/15E148 Safari/604.1' }, 2],
];

export interface Channel {
  name: string;
  /** `document.referrer`, or '$direct' as posthog-js writes an empty one. */
  referrer: string;
  referringDomain: string;
  utm?: { source: string; medium: string; campaigns: readonly string[] };
  /** Likelihood of signing up, relative to the average visitor. */
  signupLift: number;
  landing: readonly (readonly [string, number])[];
}

const SEARCH_LANDING = [['/', 5], ['blog-post', 4], ['/features', 2], ['/pricing', 1]] as const;

export const CHANNELS: readonly (readonly [Channel, number])[] = [
  [{ name: 'google', referrer: 'https://www.google.com/', referringDomain: 'www.google.com', signupLift: 1, landing: SEARCH_LANDING }, 30],
  [{ name: 'direct', referrer: '$direct', referringDomain: '$direct', signupLift: 1.3, landing: [['/', 8], ['/pricing', 1]] }, 22],
  [{ name: 'twitter', referrer: 'https://twitter.com/', referringDomain: 'twitter.com', signupLift: 0.7, landing: [['blog-post', 3], ['/', 2]] }, 7],
  [{ name: 'hackernews', referrer: 'https://news.ycombinator.com/', referringDomain: 'news.ycombinator.com', signupLift: 1.1, landing: [['blog-post', 4], ['/', 1]] }, 5],
  [{ name: 'reddit', referrer: 'https://www.reddit.com/', referringDomain: 'www.reddit.com', signupLift: 0.7, landing: [['blog-post', 3], ['/', 1]] }, 4],
  [{ name: 'linkedin', referrer: 'https://www.linkedin.com/', referringDomain: 'www.linkedin.com', signupLift: 0.9, landing: [['blog-post', 2], ['/', 2]] }, 4],
  [{ name: 'bing', referrer: 'https://www.bing.com/', referringDomain: 'www.bing.com', signupLift: 0.9, landing: SEARCH_LANDING }, 3],
  [{ name: 'duckduckgo', referrer: 'https://duckduckgo.com/', referringDomain: 'duckduckgo.com', signupLift: 1.1, landing: SEARCH_LANDING }, 2],
  [{ name: 'producthunt', referrer: 'https://www.producthunt.com/', referringDomain: 'www.producthunt.com', signupLift: 1.2, landing: [['/', 1]],
    utm: { source: 'producthunt', medium: 'referral', campaigns: ['launch'] } }, 3],
  [{ name: 'google_ads', referrer: 'https://www.google.com/', referringDomain: 'www.google.com', signupLift: 0.7, landing: [['/', 2], ['/pricing', 2], ['/features', 1]],
    utm: { source: 'google', medium: 'cpc', campaigns: ['brand_search', 'competitor_search', 'spring_sale'] } }, 9],
  [{ name: 'newsletter', referrer: '$direct', referringDomain: '$direct', signupLift: 1.6, landing: [['blog-post', 3], ['/features', 1]],
    utm: { source: 'newsletter', medium: 'email', campaigns: ['monthly_digest', 'feature_launch'] } }, 5],
  [{ name: 'twitter_ads', referrer: 'https://t.co/', referringDomain: 't.co', signupLift: 0.5, landing: [['/', 1], ['/pricing', 1]],
    utm: { source: 'twitter', medium: 'social', campaigns: ['launch_week'] } }, 3],
];

export const HACKER_NEWS = CHANNELS.find(([c]) => c.name === 'hackernews')![0];

/** Where a returning user's visit comes from. */
export const RETURN_CHANNELS: readonly (readonly [Channel, number])[] = [
  [{ name: 'direct', referrer: '$direct', referringDomain: '$direct', signupLift: 1, landing: [['/app', 1]] }, 75],
  [{ name: 'google', referrer: 'https://www.google.com/', referringDomain: 'www.google.com', signupLift: 1, landing: [['/', 1]] }, 13],
  [{ name: 'lifecycle_email', referrer: '$direct', referringDomain: '$direct', signupLift: 1, landing: [['/app/dashboard', 1]],
    utm: { source: 'hoglet', medium: 'email', campaigns: ['weekly_report', 'tips_and_tricks'] } }, 12],
];

export const TIMEZONES: readonly (readonly [string, string, number])[] = [
  // [timezone, browser language, weight]
  ['America/New_York', 'en-US', 22],
  ['America/Los_Angeles', 'en-US', 14],
  ['America/Chicago', 'en-US', 7],
  ['Europe/London', 'en-GB', 12],
  ['Europe/Berlin', 'de-DE', 9],
  ['Europe/Paris', 'fr-FR', 6],
  ['Europe/Amsterdam', 'nl-NL', 4],
  ['Asia/Kolkata', 'en-IN', 6],
  ['Asia/Tokyo', 'ja-JP', 3],
  ['Australia/Sydney', 'en-AU', 4],
  ['America/Sao_Paulo', 'pt-BR', 4],
];

/** Relative traffic by UTC hour: Europe's afternoon overlapping America's morning. */
export const HOUR_WEIGHTS: readonly number[] = [
  2, 1.5, 1.2, 1, 1, 1, 1.3, 2, 3, 4, 5, 5.5, 6, 7, 8, 8.5, 8, 7.5, 7, 6, 5, 4, 3.2, 2.5,
];

/** Relative traffic by UTC weekday, Sunday first. */
export const WEEKDAY_WEIGHTS: readonly number[] = [0.55, 1.05, 1.1, 1.1, 1.05, 0.9, 0.5];

export const FIRST_NAMES = [
  'Ada', 'Alex', 'Amara', 'Ben', 'Carla', 'Chen', 'Dana', 'Diego', 'Elif', 'Emma', 'Farah', 'Felix', 'Grace',
  'Hana', 'Ivan', 'Jamal', 'Jonas', 'Kai', 'Lena', 'Liam', 'Maya', 'Mateo', 'Nina', 'Noah', 'Olga', 'Omar',
  'Priya', 'Quinn', 'Rosa', 'Sam', 'Sofia', 'Tariq', 'Uma', 'Victor', 'Wen', 'Yara', 'Zoe',
] as const;

export const LAST_NAMES = [
  'Anderson', 'Bauer', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'Garcia', 'Haddad', 'Ito', 'Jensen', 'Kowalski',
  'Larsen', 'Martin', 'Nakamura', 'Okafor', 'Patel', 'Quinn', 'Rossi', 'Silva', 'Tanaka', 'Ueda', 'Varga',
  'Weber', 'Xu', 'Yilmaz', 'Zhang',
] as const;

export const EMAIL_DOMAINS: readonly (readonly [string, number])[] = [
  ['gmail.com', 40], ['outlook.com', 8], ['proton.me', 4], ['acme.io', 3], ['initech.com', 2], ['hooli.dev', 2],
  ['globex.co', 2], ['umbrella.health', 1], ['piedpiper.net', 2], ['wayne.enterprises', 1], ['stark.industries', 1],
];

export type PaidPlan = 'pro' | 'business';
export type BillingPeriod = 'monthly' | 'yearly';

/** List prices in USD. */
export const PRICES: Record<PaidPlan, Record<BillingPeriod, number>> = {
  pro: { monthly: 19, yearly: 190 },
  business: { monthly: 49, yearly: 490 },
};
/** An extra seat, bought in packs from the billing page. */
export const SEAT_PRICE = 9;
/** utm campaign that comes with a discount at checkout. */
export const DISCOUNTS: Record<string, number> = { spring_sale: 0.2, launch: 0.1 };
