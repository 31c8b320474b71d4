// A Vite build plugin: once the bundle is written, every text file of dist/web (JS, CSS, HTML,
// JSON, SVG...) gets a .br (brotli, quality 11) and a .gz (gzip, level 9) beside it, made with
// Node's zlib, which the server sends to browsers that ask for them (@fastify/static's
// preCompressed, web-app.ts's index.html). A file compression does not shrink gets neither.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

const TEXT = /\.(?:js|mjs|css|html|json|svg|txt|xml|map|webmanifest)$/;
const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(entries.map((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : Promise.resolve([join(dir, e.name)]))));
  return nested.flat();
}

async function precompressFile(file: string): Promise<void> {
  const raw = await readFile(file);
  const [br, gz] = await Promise.all([
    brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gzip(raw, { level: 9 }),
  ]);
  await Promise.all([
    br.length < raw.length ? writeFile(`${file}.br`, br) : undefined,
    gz.length < raw.length ? writeFile(`${file}.gz`, gz) : undefined,
  ]);
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'hoglet-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const files = (await filesUnder(outDir)).filter((f) => TEXT.test(f));
      await Promise.all(files.map(precompressFile));
    },
  };
}
