// "Watch recording" links and a recording shared by link, in Chromium against a real Hoglet: a
// fresh browser with no sign-in opens /shared/<token> and the player replays the recorded page
// (its snapshots read with the token); turning sharing off stops the link at once. Signed in, the
// events table's row of a recorded session links to the recording at that event's moment and
// opens it, and the person's page lists their recordings as the API does.
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { turnOnRecording } from '../helpers/recordings.js';
import { postBatch } from '../helpers/journeys.js';
import { ensureWebBuild, hasChromium, PASSWORD, SCREENS, uuidv7 } from './harness.js';

const CHROMIUM = process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium';

describe.skipIf(!hasChromium)('watch-recording links and shared recordings in Chromium', () => {
  let t: TestApp;
  let who: Credentials;
  let base: string;
  let browser: Browser;
  const START = Date.now() - 3_600_000;
  const sessionId = uuidv7(START);
  const HREF = 'https://shop.example/checkout';

  /** A page as rrweb serialises it: a heading and a button, a click, then the mouse moving every half second for 30 s (no inactivity to skip). */
  const rrwebEvents = () => [
    { type: 4, timestamp: START, data: { href: HREF, width: 1024, height: 640 } },
    {
      type: 2,
      timestamp: START + 10,
      data: {
        node: {
          type: 0, id: 1, childNodes: [
            { type: 1, id: 2, name: 'html', publicId: '', systemId: '' },
            { type: 2, id: 3, tagName: 'html', attributes: {}, childNodes: [
              { type: 2, id: 4, tagName: 'head', attributes: {}, childNodes: [] },
              { type: 2, id: 5, tagName: 'body', attributes: {}, childNodes: [
                { type: 2, id: 6, tagName: 'h1', attributes: {}, childNodes: [{ type: 3, id: 7, textContent: 'Recorded checkout' }] },
                { type: 2, id: 8, tagName: 'button', attributes: { id: 'pay' }, childNodes: [{ type: 3, id: 9, textContent: 'Pay now' }] },
              ] },
            ] },
          ],
        },
        initialOffset: { top: 0, left: 0 },
      },
    },
    { type: 3, timestamp: START + 2_000, data: { source: 2, type: 2, id: 8, x: 20, y: 60 } },
    ...Array.from({ length: 56 }, (_, i) => ({ type: 3, timestamp: START + 2_500 + i * 500, data: { source: 1, positions: [{ x: 30 + i, y: 30, id: 5, timeOffset: 0 }] } })),
  ];

  const api = async (url: string) => {
    const res = await t.request(who.key, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  async function signedIn(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    expect((await context.request.post(`${base}/api/login/`, { data: { email: who.email, password: PASSWORD } })).status()).toBe(200);
    return { context, page, problems };
  }

  beforeAll(async () => {
    ensureWebBuild();
    t = await createTestApp('sqlite');
    who = await t.bootstrap('rita@example.com', { organization: 'Shares Recordings' });
    await turnOnRecording(t, who);
    await t.services.accounts.setPassword(who.email, PASSWORD);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const snapshot = [{
      event: '$snapshot',
      properties: { $snapshot_data: rrwebEvents(), $session_id: sessionId, $window_id: 'w1', $lib: 'web', distinct_id: 'buyer-1', token: who.projectApiToken },
    }];
    const s = await t.app.inject({ method: 'POST', url: '/s/', payload: JSON.stringify(snapshot), headers: { 'content-type': 'application/json' } });
    expect(s.statusCode).toBe(200);
    // The session's events: a pageview 5 s in (recorded) and one of another, unrecorded session.
    const batch = [
      { event: '$pageview', distinct_id: 'buyer-1', timestamp: new Date(START + 5_000).toISOString(), properties: { $session_id: sessionId, $current_url: HREF, $set: { email: 'buyer@shop.example' } } },
      { event: 'unrecorded visit', distinct_id: 'buyer-1', timestamp: new Date(START + 60_000).toISOString(), properties: { $session_id: uuidv7(START + 60_000) } },
    ];
    expect((await postBatch(t, { api_key: who.projectApiToken, batch })).statusCode).toBe(200);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('a fresh browser without signing in opens the shared link and sees the replayed page; disabling sharing stops it', async () => {
    const sharingUrl = `/api/projects/${who.projectId}/session_recordings/${sessionId}/sharing/`;
    const enabled = await t.request(who.key, { method: 'PATCH', url: sharingUrl, payload: { enabled: true } });
    expect(enabled.statusCode).toBe(200);
    const token = enabled.json().access_token as string;
    const recording = await api(`/api/projects/${who.projectId}/session_recordings/${sessionId}/`);
    // What the token reads of it: id and times, as PostHog's shared serializer.
    const read = await t.request(null, { method: 'GET', url: `/api/projects/${who.projectId}/session_recordings/${sessionId}/?sharing_access_token=${token}` });
    expect(read.json()).toEqual({ id: sessionId, recording_duration: recording.recording_duration, start_time: recording.start_time, end_time: recording.end_time });

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await page.goto(`${base}/shared/${token}`);
    const shared = page.getByTestId('shared-recording');
    await shared.waitFor();
    expect(await shared.getByTestId('recording-meta').getAttribute('data-duration')).toBe(String(recording.recording_duration));
    // Nothing about the person is on the page.
    expect(await page.locator('body').textContent()).not.toContain('buyer');
    // The replayed iframe holds what the recorded page had.
    await page.frameLocator('.recording-screen iframe').getByText('Recorded checkout').waitFor();
    await page.locator('.recording-player[data-first-frame-ms]').waitFor();
    expect(Number(await page.locator('.recording-player').getAttribute('data-total-ms'))).toBe(30_000);
    // Nothing sent the viewer to the sign-in page, and only the recording's routes were read.
    expect(new URL(page.url()).pathname).toBe(`/shared/${token}`);
    expect(asked.filter((p) => p.startsWith('/api/')).every((p) => p.startsWith(`/api/projects/%40current/session_recordings/${sessionId}/snapshots/`))).toBe(true);
    await page.screenshot({ path: path.join(SCREENS, 'recording-shared.png'), fullPage: true });

    expect((await t.request(who.key, { method: 'PATCH', url: sharingUrl, payload: { enabled: false } })).statusCode).toBe(200);
    await page.reload();
    await page.getByRole('alert').waitFor();
    expect(await page.locator('.recording-screen').count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it("the events table links a recorded session's row to the recording at that moment, and the link opens it", async () => {
    const { context, page, problems } = await signedIn();
    const recording = await api(`/api/projects/${who.projectId}/session_recordings/${sessionId}/`);
    const offset = START + 5_000 - Date.parse(recording.start_time);
    await page.goto(`${base}/project/${who.projectId}/events`);
    const row = page.locator('[data-testid="event-row"][data-event="$pageview"]');
    const link = row.getByTestId('watch-recording');
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/project/${who.projectId}/replay/${sessionId}?t=${offset}`);
    // The other session was not recorded: no link on its row.
    await expect.poll(() => page.locator('[data-testid="event-row"][data-event="unrecorded visit"]').count()).toBe(1);
    expect(await page.locator('[data-testid="event-row"][data-event="unrecorded visit"] [data-testid="watch-recording"]').count()).toBe(0);
    await page.screenshot({ path: path.join(SCREENS, 'events-watch-recording.png'), fullPage: true });
    await link.click();
    await page.waitForURL(`${base}/project/${who.projectId}/replay/${sessionId}?t=${offset}`);
    await page.frameLocator('.recording-screen iframe').getByText('Recorded checkout').waitFor();
    // The player starts at the event's moment (playing from 0 it would take 5 s to get there).
    const position = () => page.locator('.recording-player').getAttribute('data-current-ms').then(Number);
    await expect.poll(position, { timeout: 2_000, interval: 100 }).toBeGreaterThanOrEqual(offset);
    await page.screenshot({ path: path.join(SCREENS, 'recording-from-event.png'), fullPage: true });
    // Share on the recording's page: the switch turns sharing on, and the link it shows is the API's.
    await page.getByRole('button', { name: 'Share' }).click();
    const panel = page.getByTestId('share-panel');
    await panel.getByLabel(/Share publicly/).check();
    const shown = await panel.getByTestId('share-link').inputValue();
    const stored = await api(`/api/projects/${who.projectId}/session_recordings/${sessionId}/sharing/`);
    expect([stored.enabled, shown]).toEqual([true, `${base}/shared/${stored.access_token}`]);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it("the people behind an insight's number link to the recordings of their matching events (matched_recordings)", async () => {
    const source = {
      kind: 'FunnelsQuery',
      series: [{ kind: 'EventsNode', event: '$pageview' }, { kind: 'EventsNode', event: 'unrecorded visit' }],
      dateRange: { date_from: '-7d' },
    };
    const created = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/insights/`, payload: { name: 'Checkout funnel', saved: true, query: { kind: 'InsightVizNode', source } } });
    expect(created.statusCode, created.body).toBe(201);
    const actors = await t.request(who.key, {
      method: 'POST',
      url: `/api/projects/${who.projectId}/query/`,
      payload: { query: { kind: 'ActorsQuery', source: { kind: 'InsightActorsQuery', source, funnelStep: 1, includeRecordings: true }, select: ['person', 'matched_recordings'] } },
    });
    expect(actors.statusCode, actors.body).toBe(200);
    const answer = actors.json();
    const recordings = answer.results.map((row: unknown[]) => row[answer.columns.indexOf('matched_recordings')] as { session_id: string; events: { timestamp: string }[] }[]);
    expect(recordings.map((rs: { session_id: string }[]) => rs.map((r) => r.session_id))).toEqual([[sessionId]]);
    // Each link opens its recording at the first matching event (the $pageview 5 s in).
    const start = Date.parse((await api(`/api/projects/${who.projectId}/session_recordings/${sessionId}/`)).start_time);
    const expected = recordings[0].map((r: { session_id: string; events: { timestamp: string }[] }) => `/project/${who.projectId}/replay/${r.session_id}?t=${Date.parse(r.events[0]!.timestamp) - start}`);
    expect(expected).toEqual([`/project/${who.projectId}/replay/${sessionId}?t=5000`]);

    const { context, page, problems } = await signedIn();
    await page.goto(`${base}/project/${who.projectId}/insights/${created.json().short_id}`);
    const view = page.locator('.insight-view');
    await view.getByRole('button', { name: 'Show data table' }).click();
    await view.getByTestId('data-table').locator('tbody tr').first().click();
    const panel = page.getByTestId('people-panel');
    const links = panel.getByTestId('matched-recording');
    await links.first().waitFor();
    await expect.poll(() => links.evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(expected);
    await panel.screenshot({ path: path.join(SCREENS, 'people-matched-recordings.png') });
    await links.first().click();
    await page.waitForURL(`${base}${expected[0]}`);
    await page.frameLocator('.recording-screen iframe').getByText('Recorded checkout').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);

  it("the person's page lists their recordings as the API does, each linking to it", async () => {
    const { context, page, problems } = await signedIn();
    const recording = await api(`/api/projects/${who.projectId}/session_recordings/${sessionId}/`);
    const personId = recording.person.uuid as string;
    const listed = await api(`/api/projects/${who.projectId}/session_recordings/?person_uuid=${personId}&date_from=-5y`);
    await page.goto(`${base}/project/${who.projectId}/person/${personId}`);
    const card = page.getByTestId('person-recordings');
    const rows = card.getByTestId('person-recording');
    await rows.first().waitFor();
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-session-id')))).toEqual(listed.results.map((r: { id: string }) => r.id));
    expect(listed.results.map((r: { id: string }) => r.id)).toEqual([sessionId]);
    await card.screenshot({ path: path.join(SCREENS, 'person-recordings.png') });
    await rows.first().getByRole('link').click();
    await page.waitForURL(`${base}/project/${who.projectId}/replay/${sessionId}`);
    expect(problems).toEqual([]);
    await context.close();
  }, 90_000);
});
