// Review of issue 31's annotations API with input a client can send: a NUL in the content or the
// search (PostgreSQL refuses one in a parameter) and a search of very many words (SQLite's
// expression depth) must answer PostHog's 4xx or an empty page, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

describe.each(META_STORES)('annotations with hostile input on %s', (store) => {
  let t: TestApp;
  let who: Credentials;
  let base: string;
  let id: number;

  beforeAll(async () => {
    t = await createTestApp(store);
    who = await t.bootstrap('annotator@example.com');
    base = `/api/projects/${who.projectId}/annotations/`;
    const made = await t.request(who.key, { method: 'POST', url: base, payload: { content: 'release 1.2', date_marker: '2024-01-01T00:00:00Z' } });
    expect(made.statusCode, made.body).toBe(201);
    id = made.json().id;
  });
  afterAll(() => t.close());

  it("a NUL in the content is DRF's 400 (Null characters are not allowed.), on create and on PATCH", async () => {
    const refusal = { type: 'validation_error', code: 'null_characters_not_allowed', detail: 'Null characters are not allowed.', attr: 'content' };
    const created = await t.request(who.key, { method: 'POST', url: base, payload: { content: 'a\u0000b', date_marker: '2024-01-02T00:00:00Z' } });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json()).toEqual(refusal);
    const patched = await t.request(who.key, { method: 'PATCH', url: `${base}${id}/`, payload: { content: '\u0000' } });
    expect(patched.statusCode, patched.body).toBe(400);
    expect(patched.json()).toEqual(refusal);
    expect((await t.request(who.key, { method: 'GET', url: `${base}${id}/` })).json().content).toBe('release 1.2');
  });

  it('a search with a NUL finds nothing (no content holds one); a search of 1500 words answers 400, not 500', async () => {
    const nul = await t.request(who.key, { method: 'GET', url: `${base}?search=release%00` });
    expect(nul.statusCode, nul.body).toBe(200);
    expect(nul.json()).toMatchObject({ count: 0, results: [] });
    const many = await t.request(who.key, { method: 'GET', url: `${base}?search=${Array.from({ length: 1500 }, (_, i) => `w${i}`).join('+')}` });
    expect(many.statusCode, many.body).toBe(400);
    expect(many.json()).toMatchObject({ type: 'validation_error', attr: 'search' });
    // The same word many times is one word.
    const repeated = await t.request(who.key, { method: 'GET', url: `${base}?search=${Array(1500).fill('release').join('+')}` });
    expect(repeated.statusCode, repeated.body).toBe(200);
    expect(repeated.json().count).toBe(1);
    const two = await t.request(who.key, { method: 'GET', url: `${base}?search=release+1.2` });
    expect(two.json().count).toBe(1);
  });
});
