// Plumbing shared by the replay benchmark's steps: a Hoglet server with recording on, Chromium as
// the tests start it, /proc readings of the server, and the saved /s/ requests.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { HOGLET_BIN, HOST, ROOT, bootstrapHoglet, freePort, makeTempDir, startChild, waitForReady } from '../lib/harness.js';

export const CHROMIUM = process.env.HOGLET_CHROMIUM ?? '/usr/bin/chromium';
export const PASSWORD = 'benchmark passphrase';
/** A desktop Chrome's user agent: posthog-js sends nothing for user agents that look like bots. */
export const DESKTOP_CHROME_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36';

/** Without AutomationControlled off, posthog-js takes the browser for a bot (as test/web does). */
export function launchChromium() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-blink-features=AutomationControlled', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * `hoglet bootstrap` + `serve` on a fresh data directory, recording on for its project (every
 * session, no minimum duration), the web app's password set. `env` reaches the server only.
 */
export async function startHoglet(prefix, env = {}) {
  const dataDir = makeTempDir(prefix);
  const ids = await bootstrapHoglet(dataDir, ['project_id', 'personal_api_key', 'project_api_token'], 60_000);
  execFileSync(process.execPath, [HOGLET_BIN, 'users', 'set-password', '--email', 'bench@example.com', '--password', PASSWORD, '--data-dir', dataDir], { cwd: ROOT });
  const port = await freePort();
  const base = `http://${HOST}:${port}`;
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const server = startChild('hoglet', [HOGLET_BIN, 'serve', '--port', String(port), '--host', HOST, '--data-dir', dataDir, '--log-level', 'warn']);
  process.env = saved;
  await waitForReady(server, `${base}/_health`, 60_000);
  const api = async (method, url, body) => {
    const response = await fetch(`${base}${url}`, {
      method,
      headers: { authorization: `Bearer ${ids.personal_api_key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  await api('PATCH', `/api/projects/${ids.project_id}/`, {
    session_recording_opt_in: true, session_recording_sample_rate: null, session_recording_minimum_duration_milliseconds: null,
  });
  return { dataDir, ids, base, server, api };
}

/** VmRSS / VmHWM of a process in MiB (null when /proc cannot tell). */
export function memoryOf(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (key) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]) / 1024;
    return { rss: kib('VmRSS'), hwm: kib('VmHWM') };
  } catch {
    return { rss: null, hwm: null };
  }
}

/** The saved /s/ requests: `{ query, headers, body: Buffer }`, one JSON line each. */
export function readCapture(file) {
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((line) => {
    const saved = JSON.parse(line);
    return { query: saved.query, headers: saved.headers ?? { 'content-type': saved.contentType }, body: Buffer.from(saved.body, 'base64') };
  });
}

export const mib = (bytes) => bytes / (1024 * 1024);
export const fmt = (value, digits = 1) => (value === null || value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits));

/** `up ..., load average: a, b, c` of this machine right now. */
export function uptime() {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return 'uptime unavailable';
  }
}
