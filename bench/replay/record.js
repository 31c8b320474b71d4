// Step 1 and 3 of the replay benchmark: record BENCH_SESSIONS sessions (default 100) of the shop
// page (site.js) in Chromium with the unchanged posthog-js, BENCH_PARALLEL browser contexts at once
// (default 5), each driven for BENCH_SESSION_SECONDS (default 20): scrolling, typing into the
// filter and the form, clicks on tabs, products, "load more" and the modal. Every POST to /s/ is
// saved (its query, content type and body as sent) to `<capture dir>/requests.jsonl` for the
// ingest step. Then the server's own stored blocks are measured against the raw rrweb JSON in them.
import { mkdirSync, readdirSync, statSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { log, sleep, stopChild, withTimeout } from '../lib/harness.js';
import { DESKTOP_CHROME_UA, launchChromium, startHoglet } from './common.js';
import { uncompressedEvent } from './rrweb.js';
import { serveShop } from './site.js';

/** A small seeded generator, so every run drives the same visits. */
function seeded(seed) {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    return state / 2 ** 32;
  };
}

const WORDS = ['trail', 'jacket', 'socks', 'pack', 'bottle', 'torch', 'stove', 'mat'];
const NAMES = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra', 'Barbara Liskov'];

/** One visitor's actions until `until` (ms): what a shopper does, in a seeded order. */
async function drive(page, random, until) {
  const pick = (list) => list[Math.floor(random() * list.length)];
  const actions = [
    async () => { for (let i = 0; i < 4; i++) { await page.mouse.wheel(0, 200 + random() * 600); await sleep(120); } },
    async () => { await page.mouse.wheel(0, -1500); await sleep(100); },
    async () => { await page.locator('.add').nth(Math.floor(random() * 30)).click(); },
    async () => { await page.click(pick(['#tab-shop', '#tab-deals', '#tab-help'])); },
    async () => { await page.click('#more'); },
    async () => { await page.click('#open-modal'); await sleep(400); await page.click('#close-modal'); },
    async () => { await page.fill('#filter', ''); await page.type('#filter', pick(WORDS), { delay: 70 }); await sleep(300); await page.fill('#filter', ''); },
    async () => {
      const name = pick(NAMES);
      await page.fill('#name', ''); await page.type('#name', name, { delay: 60 });
      await page.fill('#email', ''); await page.type('#email', `${name.split(' ')[0].toLowerCase()}@example.com`, { delay: 50 });
      await page.selectOption('#country', pick(['Germany', 'France', 'Spain', 'Italy']));
      await page.type('#message', 'When does the jacket come back?', { delay: 40 });
      await page.check('#terms'); await page.click('#submit');
    },
    async () => { for (let i = 0; i < 10; i++) await page.mouse.move(100 + random() * 900, 100 + random() * 600, { steps: 3 }); },
  ];
  while (Date.now() < until) {
    await pick(actions)();
    await sleep(200 + random() * 600);
  }
}

/**
 * Walks `<data dir>/recordings/<team>/<session>/*.jsonl.gz`: sizes on disk, the stored lines, the
 * rrweb events as posthog-js sent them (`rrwebBytes`) and as rrweb made them (`rawBytes`: with
 * posthog-js's own gzip'd fields unpacked), and each session's recorded time.
 */
export function measureStoredBlocks(recordingsDir) {
  const sessions = [];
  for (const team of readdirSync(recordingsDir)) {
    if (team.startsWith('.')) continue;
    for (const session of readdirSync(path.join(recordingsDir, team))) {
      const dir = path.join(recordingsDir, team, session);
      let compressed = 0, allocated = 0, lineBytes = 0, rrwebBytes = 0, rawBytes = 0, blocks = 0, events = 0;
      let first = Infinity, last = -Infinity;
      for (const name of readdirSync(dir).filter((file) => file.endsWith('.jsonl.gz'))) {
        const file = path.join(dir, name);
        const stat = statSync(file);
        const text = gunzipSync(readFileSync(file)).toString('utf8');
        blocks++; compressed += stat.size; allocated += stat.blocks * 512; lineBytes += Buffer.byteLength(text);
        for (const line of text.split('\n').filter(Boolean)) {
          const [, event] = JSON.parse(line);
          events++;
          rrwebBytes += Buffer.byteLength(JSON.stringify(event));
          rawBytes += Buffer.byteLength(JSON.stringify(uncompressedEvent(event)));
          if (typeof event.timestamp === 'number') { first = Math.min(first, event.timestamp); last = Math.max(last, event.timestamp); }
        }
      }
      sessions.push({ session: decodeURIComponent(session), blocks, events, compressed, allocated, lineBytes, rrwebBytes, rawBytes, durationMs: last - first });
    }
  }
  return sessions;
}

/**
 * Records the sessions; returns the capture file, what the browser saw and the stored blocks'
 * figures. `captureDir` receives requests.jsonl.
 */
export async function recordSessions({ sessions, parallel, seconds, captureDir }) {
  mkdirSync(captureDir, { recursive: true });
  const captureFile = path.join(captureDir, 'requests.jsonl');
  writeFileSync(captureFile, '');
  const hoglet = await startHoglet('hoglet-bench-replay-record-');
  const site = await serveShop(hoglet.ids.project_api_token, hoglet.base);
  const browser = await launchChromium();
  const seen = { requests: 0, wireBytes: 0, statuses: {}, withoutBody: 0, sessionIds: new Set() };
  const startedAt = Date.now();
  try {
    let nextIndex = 0;
    const visit = async (index) => {
      const context = await browser.newContext({ userAgent: DESKTOP_CHROME_UA, viewport: { width: 1280, height: 800 } });
      context.setDefaultTimeout(15_000);
      context.on('request', (request) => {
        if (request.method() !== 'POST' || !request.url().startsWith(`${hoglet.base}/s/`)) return;
        const body = request.postDataBuffer();
        if (!body) { seen.withoutBody++; return; }
        seen.requests++; seen.wireBytes += body.length;
        appendFileSync(captureFile, JSON.stringify({ query: new URL(request.url()).search, headers: Object.fromEntries(Object.entries(request.headers()).filter(([name]) => ['content-type', 'content-encoding'].includes(name))), body: body.toString('base64') }) + '\n');
      });
      context.on('response', (response) => {
        if (response.request().method() === 'POST' && response.url().startsWith(`${hoglet.base}/s/`)) seen.statuses[response.status()] = (seen.statuses[response.status()] ?? 0) + 1;
      });
      const page = await context.newPage();
      await page.goto(`${site.url}/`);
      await page.waitForFunction(() => globalThis.posthog?.__loaded === true && globalThis.posthog.sessionRecordingStarted?.() === true, null, { timeout: 20_000 });
      seen.sessionIds.add(await page.evaluate(() => globalThis.posthog.get_session_id()));
      await drive(page, seeded(20261129 + index * 7919), Date.now() + seconds * 1000);
      // posthog-js flushes its recording buffer every couple of seconds: wait for the last flush.
      await sleep(3_000);
      await context.close();
    };
    const worker = async () => {
      while (nextIndex < sessions) {
        const index = nextIndex++;
        await withTimeout(visit(index), (seconds + 60) * 1000, `session ${index}`);
        if ((index + 1) % 10 === 0) log(`recorded ${index + 1}/${sessions} sessions`);
      }
    };
    await Promise.all(Array.from({ length: parallel }, worker));
  } finally {
    await browser.close().catch(() => undefined);
    await site.close();
  }
  const wallSeconds = (Date.now() - startedAt) / 1000;
  const stopProblem = await stopChild(hoglet.server, 30_000);
  if (stopProblem) throw new Error(stopProblem);
  const stored = measureStoredBlocks(path.join(hoglet.dataDir, 'recordings'));
  return { captureFile, seen: { ...seen, sessionIds: seen.sessionIds.size }, stored, wallSeconds };
}
