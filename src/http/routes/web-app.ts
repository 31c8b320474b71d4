// The web app, built by `npm run build:web` into dist/web and served by this process: hashed
// assets under /assets/ (cached for a year: a new build has new names), and index.html for each
// of the app's own paths, which the app routes in the browser. A shared insight's page is
// `/shared/:token`; its JSON stays at `/shared/:token.json` (insights.ts). The build writes a .br
// and a .gz beside each text file (web/precompress.ts): a browser that asks gets one of those.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { pickEncoding, type Encoding } from '../content-encoding.js';

/** dist/web of the package, whether this module runs compiled (dist/) or from src/ (tests). */
export const WEB_APP_DIR = fileURLToPath(new URL('../../../dist/web/', import.meta.url));
/** Paths the app draws itself (everything else keeps the API's own 404; `/shared/:token` is insights.ts's). */
const APP_PATHS = ['/', '/login', '/signup/*', '/project/*'];

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Hoglet</title>
<p>The web app is not built in this checkout. Run <code>npm run build</code> (or <code>npm ci</code>), then reload.</p>
<p>The API is up: <a href="/api/schema/swagger-ui/">/api/schema/swagger-ui/</a>.</p>`;

export async function webAppRoutes(app: FastifyInstance): Promise<void> {
  await app.register(fastifyStatic, {
    root: `${WEB_APP_DIR}assets`,
    prefix: '/assets/',
    decorateReply: false,
    immutable: true,
    maxAge: '365d',
    // file.js.br / file.js.gz as Accept-Encoding allows, with Content-Encoding and Vary.
    preCompressed: true,
    // A missing directory (app not built) answers 404 like any unknown asset.
    ...(existsSync(`${WEB_APP_DIR}assets`) ? {} : { serve: false }),
  });

  for (const path of APP_PATHS) {
    app.get(path, { schema: { hide: true } }, (_request, reply) => sendAppPage(reply));
  }
}

/**
 * The app loads nothing but its own files and talks only to this server; a signed-in page is
 * never framed by another site (clickjacking), while a shared insight may be embedded anywhere.
 */
const contentPolicy = (embeddable: boolean) =>
  `default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors ${embeddable ? '*' : "'none'"}`;

/** The app's index.html, which draws whatever page the browser's path names. */
export async function sendAppPage(reply: FastifyReply, options: { embeddable?: boolean } = {}): Promise<FastifyReply> {
  const page = await appPage(reply.request.headers['accept-encoding']);
  if (page.encoding) reply.header('content-encoding', page.encoding);
  return reply
    .header('vary', 'Accept-Encoding')
    // Always revalidated: it names the current build's assets.
    .header('cache-control', 'no-cache')
    .header('content-security-policy', contentPolicy(options.embeddable === true))
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .type('text/html; charset=utf-8')
    .send(page.body);
}

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** index.html in the best encoding the browser accepts that the build wrote. */
async function appPage(acceptEncoding: string | string[] | undefined): Promise<{ body: Buffer | string; encoding: Encoding | null }> {
  const file = `${WEB_APP_DIR}index.html`;
  const encoding = pickEncoding(acceptEncoding, (['br', 'gzip'] as const).filter((e) => existsSync(file + SUFFIX[e])));
  if (encoding) {
    const body = await readFile(file + SUFFIX[encoding]).catch(() => null);
    if (body) return { body, encoding };
  }
  return { body: await readFile(file, 'utf8').catch(() => NOT_BUILT), encoding: null };
}
