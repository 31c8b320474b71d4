// A real Hoglet (real stores) listening on loopback and serving the built web app, a project
// with a week of known events and one saved insight per kind, and Debian's Chromium to look at it.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, postBatch } from '../helpers/journeys.js';

export const PASSWORD = 'correct horse battery staple';
export const SCREENS = '/tmp/hoglet-screens';
const CHROMIUM = process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = fs.existsSync(CHROMIUM);

/** Builds dist/web when it is missing or older than any file under web/. */
export function ensureWebBuild(): void {
  const index = path.resolve('dist/web/index.html');
  const newest = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
      const full = path.join(dir, entry.name);
      return Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
    }, 0);
  const fresh = () => fs.existsSync(index) && fs.statSync(index).mtimeMs >= newest(path.resolve('web'));
  if (fresh()) return;
  // Test files run in parallel: one builds while the others wait (the build empties dist/web).
  const lock = path.resolve('dist/.web-build-lock');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - started > 120_000) fs.rmSync(lock, { recursive: true, force: true });
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!fresh()) execFileSync(process.execPath, [path.resolve('node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], { stdio: 'inherit' });
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

const RANGE = { date_from: '2024-01-01', date_to: '2024-01-07' };
const url = (p: string) => ({ $current_url: `https://example.com${p}` });

/** The saved insights' query sources, by kind. */
export const SOURCES = {
  trends: {
    kind: 'TrendsQuery',
    series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview' }, { kind: 'EventsNode', event: 'signed_up', name: 'signed_up' }],
    dateRange: RANGE,
    interval: 'day',
    trendsFilter: { display: 'ActionsLineGraph' },
  },
  funnel: {
    kind: 'FunnelsQuery',
    series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview' }, { kind: 'EventsNode', event: 'signed_up', name: 'signed_up' }, { kind: 'EventsNode', event: 'purchase', name: 'purchase' }],
    dateRange: RANGE,
    funnelsFilter: { funnelVizType: 'steps', funnelWindowInterval: 14, funnelWindowIntervalUnit: 'day' },
  },
  retention: {
    kind: 'RetentionQuery',
    dateRange: RANGE,
    retentionFilter: { period: 'Day', totalIntervals: 7, targetEntity: { id: '$pageview', type: 'events' }, returningEntity: { id: '$pageview', type: 'events' } },
  },
  paths: { kind: 'PathsQuery', dateRange: RANGE, pathsFilter: { includeEventTypes: ['$pageview'] } },
  stickiness: { kind: 'StickinessQuery', series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview' }], dateRange: RANGE, interval: 'day' },
  lifecycle: { kind: 'LifecycleQuery', series: [{ kind: 'EventsNode', event: '$pageview', name: '$pageview' }], dateRange: RANGE, interval: 'day' },
} as const;
export type Kind = keyof typeof SOURCES;

export interface SavedInsight {
  id: number;
  short_id: string;
  name: string;
}

export interface World {
  t: TestApp;
  who: Credentials;
  base: string;
  browser: Browser;
  insights: Record<Kind, SavedInsight>;
  dashboardId: number;
  close(): Promise<void>;
}

export async function startWorld(): Promise<World> {
  ensureWebBuild();
  const t = await createTestApp('sqlite');
  const who = await t.bootstrap('ada@example.com', { organization: 'Analytical Engines' });
  await t.services.accounts.setPassword(who.email, PASSWORD);
  await journeys(t, who, {
    p1: [
      ev('$pageview', '2024-01-01T10:00:00Z', { ...url('/'), $browser: 'Chrome', $set: { email: 'p1@example.com' } }),
      ev('$pageview', '2024-01-01T10:02:00Z', { ...url('/pricing'), $browser: 'Chrome' }),
      ev('signed_up', '2024-01-01T10:04:00Z'),
      ev('$pageview', '2024-01-03T09:00:00Z', { ...url('/'), $browser: 'Chrome' }),
      ev('purchase', '2024-01-03T09:01:00Z'),
    ],
    p2: [
      ev('$pageview', '2024-01-01T11:00:00Z', { ...url('/'), $browser: 'Firefox', $set: { email: 'p2@example.com' } }),
      ev('$pageview', '2024-01-01T11:03:00Z', { ...url('/docs'), $browser: 'Firefox' }),
      ev('$pageview', '2024-01-02T12:00:00Z', { ...url('/'), $browser: 'Firefox' }),
      ev('$pageview', '2024-01-02T12:01:00Z', { ...url('/pricing'), $browser: 'Firefox' }),
      ev('signed_up', '2024-01-02T12:02:00Z'),
    ],
    p3: [
      ev('$pageview', '2024-01-02T08:00:00Z', { ...url('/'), $browser: 'Chrome' }),
      ev('$pageview', '2024-01-02T08:05:00Z', { ...url('/pricing'), $browser: 'Chrome' }),
      ev('$pageview', '2024-01-04T08:00:00Z', { ...url('/'), $browser: 'Chrome' }),
    ],
    p4: [
      ev('$pageview', '2024-01-03T15:00:00Z', { ...url('/'), $browser: 'Safari' }),
      ev('$pageview', '2024-01-05T15:00:00Z', { ...url('/docs'), $browser: 'Safari' }),
    ],
    p5: [
      ev('$pageview', '2024-01-05T10:00:00Z', { ...url('/'), $browser: 'Chrome', $set: { email: 'p5@example.com' } }),
      ev('$pageview', '2024-01-05T10:01:00Z', { ...url('/pricing'), $browser: 'Chrome' }),
      ev('signed_up', '2024-01-05T10:02:00Z'),
      ev('purchase', '2024-01-05T10:03:00Z'),
      ev('$pageview', '2024-01-06T10:00:00Z', { ...url('/'), $browser: 'Chrome' }),
      ev('$pageview', '2024-01-07T10:00:00Z', { ...url('/'), $browser: 'Chrome' }),
    ],
  });

  const apiBase = `/api/projects/${who.projectId}`;
  const dashboard = await t.request(who.key, { method: 'POST', url: `${apiBase}/dashboards/`, payload: { name: 'Weekly numbers', description: 'The week in one place' } });
  if (dashboard.statusCode !== 201) throw new Error(`dashboard: ${dashboard.body}`);
  const dashboardId = dashboard.json().id as number;

  const insights = {} as Record<Kind, SavedInsight>;
  for (const [kind, source] of Object.entries(SOURCES) as [Kind, object][]) {
    const name = `${kind[0]!.toUpperCase()}${kind.slice(1)} of the week`;
    const res = await t.request(who.key, {
      method: 'POST',
      url: `${apiBase}/insights/`,
      payload: { name, query: { kind: 'InsightVizNode', source }, tags: kind === 'funnel' ? ['growth'] : ['weekly'], dashboards: [dashboardId], saved: true },
    });
    if (res.statusCode !== 201) throw new Error(`insight ${kind}: ${res.body}`);
    const body = res.json();
    insights[kind] = { id: body.id, short_id: body.short_id, name };
  }

  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  fs.mkdirSync(SCREENS, { recursive: true });
  return {
    t,
    who,
    base: `http://127.0.0.1:${port}`,
    browser,
    insights,
    dashboardId,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

/** POST /query/ with the key, as a script would ask: the numbers the page must show. */
export async function queryApi(w: World, query: object): Promise<any> {
  const res = await w.t.request(w.who.key, { method: 'POST', url: `/api/projects/${w.who.projectId}/query/`, payload: { query, refresh: 'blocking' } });
  if (res.statusCode !== 200) throw new Error(`query: ${res.statusCode} ${res.body}`);
  return res.json();
}

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors, console errors and requests that left the server's origin. */
  problems: string[];
}

/** A fresh browser profile; signed in through the API unless told not to. */
export async function openPage(w: World, options: { signIn?: boolean; width?: number; height?: number } = {}): Promise<Watched> {
  const context = await w.browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 } });
  // Fail fast: nothing on these pages should take seconds to appear.
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // A 4xx the app handles (wrong password, an unsupported actors query) is logged by Chromium itself.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });
  page.on('request', (request) => {
    const target = request.url();
    if (!target.startsWith(w.base) && !target.startsWith('data:')) problems.push(`outbound request: ${target}`);
  });
  if (options.signIn !== false) {
    const res = await context.request.post(`${w.base}/api/login/`, { data: { email: w.who.email, password: PASSWORD } });
    if (res.status() !== 200) throw new Error(`sign in: ${res.status()} ${await res.text()}`);
  }
  return { context, page, problems };
}

/** A table's body rows: each cell's data-value when it has one (the exact number), else its text. */
export async function tableRows(table: Locator): Promise<{ key: string | null; cells: string[] }[]> {
  await table.waitFor();
  return table.locator('tbody tr').evaluateAll((rows) =>
    rows.map((row) => ({
      key: row.getAttribute('data-key'),
      cells: Array.from(row.children).map((cell: any) => cell.getAttribute('data-value') ?? (cell.textContent ?? '').trim()),
    })));
}

/** The legend's items: label, and the exact value when numeric. */
export async function legendItems(scope: Locator): Promise<{ key: string | null; label: string; value: string | null }[]> {
  const legend = scope.getByTestId('legend');
  await legend.waitFor();
  return legend.locator('li').evaluateAll((items) =>
    items.map((item) => ({
      key: item.getAttribute('data-key'),
      label: (item.querySelector('.legend-label')?.textContent ?? '').trim(),
      value: item.getAttribute('data-value'),
    })));
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: path.join(SCREENS, `${name}.png`), fullPage: true });
}

/** Opens a saved insight and waits for its chart area to be drawn, data table shown. */
export async function openInsight(w: World, page: Page, kind: Kind): Promise<Locator> {
  await page.goto(`${w.base}/project/${w.who.projectId}/insights/${w.insights[kind].short_id}`);
  const view = page.locator('.insight-view');
  await view.waitFor();
  await view.getByRole('button', { name: 'Show data table' }).click();
  return view;
}

/** Events captured now (a second apart, oldest first), for the pages that show recent activity. */
export async function captureNow(w: World, events: { event: string; distinct_id: string; properties?: Record<string, unknown> }[]): Promise<void> {
  const start = Date.now() - events.length * 1000 - 5000;
  const batch = events.map((e, i) => ({ ...e, properties: e.properties ?? {}, timestamp: new Date(start + i * 1000).toISOString() }));
  const res = await postBatch(w.t, { api_key: w.who.projectApiToken, batch });
  if (res.statusCode !== 200) throw new Error(`capture: ${res.statusCode} ${res.body}`);
}

/** Types into a combobox (found by its accessible name) and clicks the option with that exact name. */
export async function pick(scope: Locator | Page, label: string, typed: string, option: string): Promise<void> {
  const box = scope.getByRole('combobox', { name: label, exact: true });
  await box.click();
  await box.fill(typed);
  await scope.getByRole('listbox', { name: label, exact: true }).getByRole('option', { name: option, exact: true }).click();
}

/** The options a combobox offers for a typed text, once loaded. */
export async function optionsOf(scope: Locator | Page, label: string, typed: string): Promise<string[]> {
  const box = scope.getByRole('combobox', { name: label, exact: true });
  await box.click();
  await box.fill(typed);
  const list = scope.getByRole('listbox', { name: label, exact: true });
  await list.getByRole('option').first().waitFor();
  return list.getByRole('option').evaluateAll((items) => items.map((i) => (i.firstElementChild?.textContent ?? '').trim()));
}

/** GET with the key, parsed (throws on anything but 200). */
export async function getApi(w: World, url: string): Promise<any> {
  const res = await w.t.request(w.who.key, { method: 'GET', url });
  if (res.statusCode !== 200) throw new Error(`GET ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** Events with their own timestamps in one /batch/ (throws on anything but 200). */
export async function captureBatch(w: World, batch: object[]): Promise<void> {
  const res = await postBatch(w.t, { api_key: w.who.projectApiToken, batch });
  if (res.statusCode !== 200) throw new Error(`capture: ${res.statusCode} ${res.body}`);
}

/** A UUIDv7 whose time part is `ms`, as posthog-js makes $session_id. */
export function uuidv7(ms: number): string {
  const time = ms.toString(16).padStart(12, '0');
  const rand = randomBytes(10).toString('hex');
  const variant = ((parseInt(rand[3]!, 16) & 3) | 8).toString(16);
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${rand.slice(0, 3)}-${variant}${rand.slice(4, 7)}-${rand.slice(7, 19)}`;
}

/** 10:00 UTC `days` days ago, plus seconds: always in the past, inside "Last 7 days" for 1..6. */
export function daysAgo(days: number, plusSeconds = 0): number {
  const today = new Date();
  return Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()) - days * 86_400_000 + 10 * 3_600_000 + plusSeconds * 1000;
}

/** The web overview's cards as {key: data-value}. */
export const overviewValues = (scope: Page | Locator) =>
  scope.getByTestId('web-overview').locator('[data-key]').evaluateAll((cards) =>
    Object.fromEntries(cards.map((c) => [c.getAttribute('data-key'), c.getAttribute('data-value')])));

/** A WebOverviewQuery answer as the cards show it: {key: value as text}. */
export const apiOverviewValues = (answer: { results: { key: string; value: number | null }[] }) =>
  Object.fromEntries(answer.results.map((i) => [i.key, i.value === null ? null : String(i.value)]));
