// posthog-js's extension scripts (surveys.js, exception-autocapture.js, ...), which the SDK loads
// from its api_host at `/static/<file>.js` or `/static/<version>/<file>.js`. PostHog serves its
// current build there whatever version asks; Hoglet serves the posthog-js package it ships with,
// so a page using the SDK's defaults loads what it asks for instead of logging 404s and CORS errors.
// Every visitor of a site with the snippet downloads array.js (380 KB): each script is compressed
// once per process, from its first request, and kept in memory: gzip at once (~30 ms for array.js),
// brotli (quality 11, ~1.5 s) on libuv's threadpool meanwhile, served from when it is ready; each
// is sent as the browser's Accept-Encoding allows (br > gzip > identity), with an ETag per encoding.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Type } from 'typebox';
import { NotFoundError } from '../../errors.js';
import { etagMatches, pickEncoding, type Encoding } from '../content-encoding.js';
import type { HogletApp } from '../hoglet-app.js';
import { sdkScope } from './capture.js';

const BUNDLES = path.join(path.dirname(createRequire(import.meta.url).resolve('posthog-js/package.json')), 'dist');
/** Only the package's own top-level scripts: a plain name, no directories, no source maps. */
const SCRIPT_NAME = /^[a-z0-9][a-z0-9._-]*\.js$/;

interface Script {
  identity: Buffer;
  /** Filled in as each is ready; absent when compressing does not make it smaller. */
  encoded: Partial<Record<Encoding, Buffer>>;
  /** Of the file's bytes; each encoding's own ETag adds its name. */
  hash: string;
}

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
/** One per process: every app in it (tests start many) serves the same package. */
const scripts = new Map<string, Promise<Script>>();

async function compressed(file: string): Promise<Script> {
  const identity = await fs.promises.readFile(path.join(BUNDLES, file));
  const found: Script = { identity, encoded: {}, hash: createHash('sha256').update(identity).digest('base64url').slice(0, 27) };
  const smaller = (encoding: Encoding) => (bytes: Buffer) => { if (bytes.length < identity.length) found.encoded[encoding] = bytes; };
  // Nobody waits for brotli: until it is ready, gzip is what a browser asking for both gets.
  brotli(identity, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: identity.length } })
    .then(smaller('br'), () => undefined);
  await gzip(identity, { level: 9 }).then(smaller('gzip'));
  return found;
}

function script(file: string): Promise<Script> {
  let found = scripts.get(file);
  if (!found) {
    found = compressed(file);
    // A failed read is tried again on the next request rather than remembered.
    found.catch(() => scripts.delete(file));
    scripts.set(file, found);
  }
  return found;
}

export async function sdkStaticRoutes(app: HogletApp): Promise<void> {
  const names = new Set(fs.readdirSync(BUNDLES).filter((name) => SCRIPT_NAME.test(name)));
  // Both paths have a file; the version is ignored.
  const schema = { hide: true, params: Type.Object({ file: Type.String(), version: Type.Optional(Type.String()) }) };
  await sdkScope(app, (scope) => {
    for (const url of ['/static/:file', '/static/:version/:file']) {
      scope.get(url, { schema }, async (request, reply) => {
        const { file } = request.params;
        if (!names.has(file)) throw new NotFoundError();
        const found = await script(file);
        const encoding = pickEncoding(request.headers['accept-encoding'], (['br', 'gzip'] as const).filter((e) => found.encoded[e]));
        const etag = `"${found.hash}${encoding ? `-${encoding}` : ''}"`;
        reply.header('content-type', 'application/javascript; charset=utf-8');
        reply.header('cache-control', 'public, max-age=3600');
        // The CORS hook may have said Vary: Origin already.
        const vary = reply.getHeader('vary');
        reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
        reply.header('etag', etag);
        if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
        if (encoding) reply.header('content-encoding', encoding);
        return reply.send(encoding ? found.encoded[encoding] : found.identity);
      });
    }
  });
}
