// What posthog-js puts in a /s/ body, taken apart: its `$snapshot` events, their rrweb events, and
// the fields posthog-js gzips itself (events marked `cv: "2024-10"`: a full snapshot's `data`, a
// mutation's adds/removes/texts/attributes, each a gzip stream as a latin-1 string).
import { gunzipSync, gzipSync } from 'node:zlib';

/** The JSON text of a saved /s/ body (gunzipped when posthog-js gzipped it). */
export function bodyText(body) {
  return (body[0] === 0x1f && body[1] === 0x8b ? gunzipSync(body) : body).toString('utf8');
}

/** A body again, gzipped when the original was (as posthog-js's `compression=gzip-js` sends it). */
export function encodeBody(text, gzipped) {
  return gzipped ? gzipSync(text, { level: 6 }) : Buffer.from(text);
}

export const isGzip = (body) => body[0] === 0x1f && body[1] === 0x8b;

const inflate = (value) => (typeof value === 'string' ? JSON.parse(gunzipSync(Buffer.from(value, 'latin1')).toString('utf8')) : value);

/** The rrweb event with posthog-js's own compression undone: the JSON rrweb itself emitted. */
export function uncompressedEvent(event) {
  if (event.cv === undefined) return event;
  const { cv: _cv, ...rest } = event;
  if (rest.type === 2) return { ...rest, data: inflate(rest.data) };
  if (rest.type === 3 && rest.data?.source === 0) {
    const data = { ...rest.data };
    for (const key of ['adds', 'removes', 'texts', 'attributes']) data[key] = inflate(data[key]);
    return { ...rest, data };
  }
  return rest;
}
