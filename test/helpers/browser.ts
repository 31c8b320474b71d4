// A real browser for tests: Debian's Chromium driven by playwright-core (no downloaded browser
// builds). `.ci/run` installs it; elsewhere, tests that need it are skipped with a notice unless
// CI is set, where a missing browser is a failure.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';

/** The Chromium executable: HOGLET_CHROMIUM, else the first found on PATH. */
export function findChromium(): string | null {
  const named = process.env.HOGLET_CHROMIUM;
  if (named) return fs.existsSync(named) ? named : null;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim() || null;
    } catch {
      // not this one
    }
  }
  return null;
}

/** A user agent of a desktop Chrome: posthog-js drops events from user agents that look like bots. */
export const DESKTOP_CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/139.0.0.0 Safari/537.36';

export interface StaticSite {
  url: string;
  close(): Promise<void>;
}

/**
 * A tiny web site on loopback: the given pages by path, and posthog-js's browser bundles from
 * node_modules under /posthog-js/, as a customer's site would host them.
 */
export async function serveSite(pages: Record<string, string>): Promise<StaticSite> {
  const bundles = path.resolve('node_modules/posthog-js/dist');
  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://site');
    const page = pages[url.pathname];
    if (page !== undefined) {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      return;
    }
    const bundle = /^\/posthog-js\/([\w.-]+\.js)$/.exec(url.pathname)?.[1];
    if (bundle && fs.existsSync(path.join(bundles, bundle))) {
      response.writeHead(200, { 'content-type': 'application/javascript' }).end(fs.readFileSync(path.join(bundles, bundle)));
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
