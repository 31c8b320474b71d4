// posthog-js's extension scripts (surveys.js, exception-autocapture.js, ...), which the SDK loads
// from its api_host at `/static/<file>.js` or `/static/<version>/<file>.js`. PostHog serves its
// current build there whatever version asks; Hoglet serves the posthog-js package it ships with,
// so a page using the SDK's defaults loads what it asks for instead of logging 404s and CORS errors.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Type } from 'typebox';
import { NotFoundError } from '../../errors.js';
import type { HogletApp } from '../hoglet-app.js';
import { sdkScope } from './capture.js';

const BUNDLES = path.join(path.dirname(createRequire(import.meta.url).resolve('posthog-js/package.json')), 'dist');
/** Only the package's own top-level scripts: a plain name, no directories, no source maps. */
const SCRIPT_NAME = /^[a-z0-9][a-z0-9._-]*\.js$/;

export async function sdkStaticRoutes(app: HogletApp): Promise<void> {
  const scripts = new Set(fs.readdirSync(BUNDLES).filter((name) => SCRIPT_NAME.test(name)));
  // Both paths have a file; the version is ignored.
  const schema = { hide: true, params: Type.Object({ file: Type.String(), version: Type.Optional(Type.String()) }) };
  await sdkScope(app, (scope) => {
    for (const url of ['/static/:file', '/static/:version/:file']) {
      scope.get(url, { schema }, async (request, reply) => {
        const { file } = request.params;
        if (!scripts.has(file)) throw new NotFoundError();
        reply.header('content-type', 'application/javascript; charset=utf-8');
        reply.header('cache-control', 'public, max-age=3600');
        return reply.send(fs.createReadStream(path.join(BUNDLES, file)));
      });
    }
  });
}
