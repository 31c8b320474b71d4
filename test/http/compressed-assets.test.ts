// Text the server sends compressed when the browser asks: posthog-js's scripts at /static/
// (compressed once per process), the web app's index.html and every text asset under /assets/
// (precompressed by the build, web/precompress.ts). Each encoding's bytes decompress to the file;
// br is preferred to gzip, identity is sent when not asked (or refused by q=0); Vary,
// Content-Length, HEAD and ETag/304 hold per encoding. The measured sizes are printed.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pickEncoding } from '../../src/http/content-encoding.js';
import { WEB_APP_DIR } from '../../src/http/routes/web-app.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { ensureWebBuild } from '../web/harness.js';

const ARRAY_JS = path.join(path.dirname(createRequire(import.meta.url).resolve('posthog-js/package.json')), 'dist', 'array.js');

let t: TestApp;
beforeAll(async () => {
  ensureWebBuild();
  t = await createTestApp('sqlite');
}, 180_000);
afterAll(() => t.close());

const get = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url, headers });

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  return body;
}

/** Brotli for a script is made in the background after its first request: wait until it is served. */
async function whenServedAs(url: string, encoding: string) {
  for (let i = 0; i < 200; i++) {
    const res = await get(url, { 'accept-encoding': encoding });
    if (res.headers['content-encoding'] === encoding) return res;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${url} never served as ${encoding}`);
}

/** The checks every compressed file passes: each encoding decompresses to `raw`, with its length. */
async function checkEncodings(url: string, raw: Buffer) {
  const sizes: Record<string, number> = { raw: raw.length };
  for (const encoding of ['br', 'gzip']) {
    const res = await whenServedAs(url, encoding);
    expect(res.statusCode, url).toBe(200);
    expect(String(res.headers.vary), url).toMatch(/accept-encoding/i);
    expect(Number(res.headers['content-length']), url).toBe(res.rawPayload.length);
    expect(decoded(res.rawPayload, encoding).equals(raw), `${url} ${encoding}`).toBe(true);
    sizes[encoding] = res.rawPayload.length;
  }
  const plain: Record<string, string>[] = [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }, { 'accept-encoding': 'deflate' }];
  for (const headers of plain) {
    const res = await get(url, headers);
    expect(res.headers['content-encoding'], `${url} ${JSON.stringify(headers)}`).toBeUndefined();
    expect(res.rawPayload.equals(raw), url).toBe(true);
  }
  // Both asked for: br; gzip preferred by its q-value: gzip.
  expect((await get(url, { 'accept-encoding': 'gzip, deflate, br' })).headers['content-encoding']).toBe('br');
  expect((await get(url, { 'accept-encoding': 'br;q=0.5, gzip' })).headers['content-encoding']).toBe('gzip');
  return sizes;
}

/** HEAD has GET's headers and no body; a GET with the ETag it got is a 304, and ETags differ per encoding. */
async function checkHeadAndEtag(url: string) {
  const full = await get(url, { 'accept-encoding': 'br' });
  const head = await get(url, { 'accept-encoding': 'br' }, 'HEAD');
  expect(head.statusCode).toBe(200);
  expect(head.headers['content-encoding']).toBe('br');
  expect(head.headers['content-length']).toBe(full.headers['content-length']);
  expect(head.rawPayload.length).toBe(0);
  const etag = String(full.headers.etag);
  expect(etag).toMatch(/^(W\/)?"/);
  const again = await get(url, { 'accept-encoding': 'br', 'if-none-match': etag });
  expect(again.statusCode).toBe(304);
  expect(again.rawPayload.length).toBe(0);
  const plain = await get(url);
  expect(plain.headers.etag).not.toBe(etag);
  expect((await get(url, { 'if-none-match': etag })).statusCode).toBe(200);
  expect((await get(url, { 'if-none-match': String(plain.headers.etag) })).statusCode).toBe(304);
}

describe('Accept-Encoding negotiation', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.2, gzip;q=0.8', 'gzip'],
    ['*', 'br'],
    ['*;q=0', null],
    ['br;q=0, *', 'gzip'],
    ['identity', null],
    ['x-gzip', 'gzip'],
    ['GZIP;Q=1', 'gzip'],
  ] as const)('%j → %s', (header, expected) => {
    expect(pickEncoding(header, ['br', 'gzip'])).toBe(expected);
  });
});

describe('compressed assets', () => {
  it('posthog-js\'s array.js: br and gzip that decompress to the file, identity when not asked; HEAD and 304 per encoding', async () => {
    const raw = fs.readFileSync(ARRAY_JS);
    const sizes = await checkEncodings('/static/array.js', raw);
    await checkHeadAndEtag('/static/array.js');
    // A CORS request keeps its Vary: Origin beside Accept-Encoding.
    const cors = await get('/static/array.js', { origin: 'https://shop.example', 'accept-encoding': 'gzip' });
    expect(String(cors.headers.vary)).toMatch(/Origin.*Accept-Encoding/);
    console.log(`array.js bytes: ${JSON.stringify(sizes)}`);
    expect(sizes.gzip).toBeLessThan(raw.length / 2);
    expect(sizes.br).toBeLessThan(sizes.gzip!);
  });

  it('the app\'s index.html and its bundle: precompressed by the build, negotiated by the server; HEAD and 304 on the bundle', async () => {
    const html = fs.readFileSync(path.join(WEB_APP_DIR, 'index.html'));
    await checkEncodings('/', html);
    await checkEncodings('/project/1/insights', html);
    const bundle = /src="(\/assets\/index-[^"]+\.js)"/.exec(html.toString('utf8'))![1]!;
    const raw = fs.readFileSync(path.join(WEB_APP_DIR, bundle));
    const sizes = await checkEncodings(bundle, raw);
    await checkHeadAndEtag(bundle);
    const asset = await get(bundle, { 'accept-encoding': 'br' });
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toMatch(/immutable/);
    console.log(`app bundle ${bundle} bytes: ${JSON.stringify(sizes)}`);
    expect(sizes.br).toBeLessThan(sizes.gzip!);
  });

  it('every text file of the build has its .br and .gz, each served and decompressing to the file', async () => {
    const assets = fs.readdirSync(path.join(WEB_APP_DIR, 'assets')).filter((f) => /\.(js|css|svg|json|html)$/.test(f));
    expect(assets.some((f) => f.endsWith('.css'))).toBe(true);
    for (const file of assets) {
      const raw = fs.readFileSync(path.join(WEB_APP_DIR, 'assets', file));
      for (const encoding of ['br', 'gzip'] as const) {
        const res = await get(`/assets/${file}`, { 'accept-encoding': encoding });
        // A file too small to shrink has no compressed copy and is sent as it is.
        const expected = fs.existsSync(path.join(WEB_APP_DIR, 'assets', `${file}${encoding === 'br' ? '.br' : '.gz'}`)) ? encoding : undefined;
        expect(res.headers['content-encoding'], `${file} ${encoding}`).toBe(expected);
        expect(decoded(res.rawPayload, expected).equals(raw), `${file} ${encoding}`).toBe(true);
      }
      expect(fs.existsSync(path.join(WEB_APP_DIR, 'assets', `${file}.gz`)) || raw.length < 200, file).toBe(true);
    }
  });
});
