// Sharing an insight as a client sees it: the configuration (unsaved default, enabling, token
// refresh), reading the one shared insight with its token and no key (retrieve, list, /shared/),
// everything the token must not open, the activity it logs, and the scopes it needs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const TOKEN = /^[A-Za-z0-9_-]{30}$/;
const PAGEVIEWS = [{ kind: 'EventsNode', event: '$pageview' }];
const trendsInsight = () => ({ kind: 'InsightVizNode', source: trendsQuery(PAGEVIEWS, '2024-01-01', '2024-01-03') });

interface Insight {
  id: number;
  short_id: string;
  name: string;
}

describe.each(META_STORES)('Insight sharing on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const api = (c: Credentials = alice) => `/api/projects/${c.projectId}`;
  let counter = 0;

  const createInsight = async (payload: Record<string, unknown> = {}, c: Credentials = alice): Promise<Insight> => {
    const res = await t.request(c.key, { method: 'POST', url: `${api(c)}/insights/`, payload: { name: `shared insight ${++counter}`, query: trendsInsight(), saved: true, ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const sharingUrl = (insight: Insight, c: Credentials = alice) => `${api(c)}/insights/${insight.id}/sharing/`;
  const getSharing = async (insight: Insight, key = alice.key) => {
    const res = await t.request(key, { method: 'GET', url: sharingUrl(insight) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const setSharing = async (insight: Insight, enabled: boolean) => {
    const res = await t.request(alice.key, { method: 'PATCH', url: sharingUrl(insight), payload: { enabled } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const refreshToken = async (insight: Insight) => {
    const res = await t.request(alice.key, { method: 'POST', url: `${sharingUrl(insight)}refresh/` });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** A shared insight and its working token. */
  const shared = async (payload: Record<string, unknown> = {}) => {
    const insight = await createInsight(payload);
    const config = await setSharing(insight, true);
    return { insight, token: config.access_token as string };
  };

  // The three ways a token reads without a key.
  const retrieveWith = (token: string, id: number | string, projectId: number | string = alice.projectId) =>
    t.request(null, { method: 'GET', url: `/api/projects/${projectId}/insights/${id}/?sharing_access_token=${encodeURIComponent(token)}` });
  const listWith = (token: string, projectId: number | string = alice.projectId, extra = '') =>
    t.request(null, { method: 'GET', url: `/api/projects/${projectId}/insights/?sharing_access_token=${encodeURIComponent(token)}${extra}` });
  const sharedPage = (token: string) => t.request(null, { method: 'GET', url: `/shared/${encodeURIComponent(token)}.json` });
  const allThree = async (token: string, insight: Insight) =>
    [await retrieveWith(token, insight.id), await listWith(token), await sharedPage(token)] as const;

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    await journeys(t, alice, {
      a: [ev('$pageview', '2024-01-01T10:00:00Z'), ev('$pageview', '2024-01-02T10:00:00Z')],
      b: [ev('$pageview', '2024-01-02T11:00:00Z')],
    });
  });
  afterAll(() => t.close());

  describe('the configuration', () => {
    it('without one, GET shows an unsaved default with a fresh token each time', async () => {
      const insight = await createInsight();
      const first = await getSharing(insight);
      expect(first).toMatchObject({ created_at: null, enabled: false, access_token: expect.stringMatching(TOKEN) });
      const second = await getSharing(insight);
      expect(second).toMatchObject({ created_at: null, enabled: false, access_token: expect.stringMatching(TOKEN) });
      expect(second.access_token).not.toBe(first.access_token);
      // Nothing was saved: neither token opens the insight.
      for (const token of [first.access_token, second.access_token]) {
        expect((await retrieveWith(token, insight.id)).statusCode).toBe(403);
      }
    });

    it('PATCH {enabled: true} saves it: created_at set and the token stays the same', async () => {
      const insight = await createInsight();
      const enabled = await setSharing(insight, true);
      expect(enabled).toMatchObject({ enabled: true, access_token: expect.stringMatching(TOKEN) });
      expect(Date.parse(enabled.created_at)).not.toBeNaN();
      const again = await getSharing(insight);
      expect(again).toMatchObject({ enabled: true, access_token: enabled.access_token, created_at: enabled.created_at });
      expect((await getSharing(insight)).access_token).toBe(enabled.access_token);
      // Disabling keeps the configuration and its token; enabling again opens it again.
      const disabled = await setSharing(insight, false);
      expect(disabled).toMatchObject({ enabled: false, access_token: enabled.access_token, created_at: enabled.created_at });
      expect((await retrieveWith(enabled.access_token, insight.id)).statusCode).toBe(403);
      await setSharing(insight, true);
      expect((await retrieveWith(enabled.access_token, insight.id)).statusCode).toBe(200);
    });

    it('concurrent enables save one configuration: one token, and disabling closes it', async () => {
      const insight = await createInsight();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => t.request(alice.key, { method: 'PATCH', url: sharingUrl(insight), payload: { enabled: true } })),
      );
      for (const res of answers) expect(res.statusCode, res.body).toBe(200);
      const tokens = new Set(answers.map((res) => res.json().access_token as string));
      expect(tokens).toContain((await getSharing(insight)).access_token);
      await setSharing(insight, false);
      // Whichever token a client was given, disabling sharing must close it.
      const stillOpen = [];
      for (const token of tokens) if ((await retrieveWith(token, insight.id)).statusCode !== 403) stillOpen.push(token);
      expect(stillOpen).toEqual([]);
      expect(tokens.size).toBe(1);
    });

    it('POST sharing/refresh/ gives a new token, and the old one stops working at once', async () => {
      const { insight, token: old } = await shared();
      expect((await retrieveWith(old, insight.id)).statusCode).toBe(200);
      const refreshed = await refreshToken(insight);
      expect(refreshed).toMatchObject({ enabled: true, access_token: expect.stringMatching(TOKEN) });
      expect(refreshed.access_token).not.toBe(old);
      expect((await getSharing(insight)).access_token).toBe(refreshed.access_token);
      for (const res of await allThree(old, insight)) expect(res.statusCode).toBe(403);
      for (const res of await allThree(refreshed.access_token, insight)) expect(res.statusCode).toBe(200);
    });

    it('answers 404 for the sharing of a deleted, unknown or other-project insight', async () => {
      const insight = await createInsight();
      await t.request(alice.key, { method: 'PATCH', url: `${api()}/insights/${insight.id}/`, payload: { deleted: true } });
      expect((await t.request(alice.key, { method: 'GET', url: sharingUrl(insight) })).statusCode).toBe(404);
      expect((await t.request(alice.key, { method: 'PATCH', url: sharingUrl(insight), payload: { enabled: true } })).statusCode).toBe(404);
      expect((await t.request(alice.key, { method: 'GET', url: `${api()}/insights/999999/sharing/` })).statusCode).toBe(404);
      const bobs = await createInsight({}, bob);
      expect((await t.request(alice.key, { method: 'GET', url: `${api()}/insights/${bobs.id}/sharing/` })).statusCode).toBe(404);
      expect((await t.request(alice.key, { method: 'PATCH', url: sharingUrl(bobs, bob), payload: { enabled: true } })).statusCode).toBe(404);
      expect((await t.request(bob.key, { method: 'GET', url: sharingUrl(bobs, bob) })).json().enabled).toBe(false);
    });
  });

  describe('reading with the token and no key', () => {
    it('retrieve shows the insight with its result calculated', async () => {
      const { insight, token } = await shared();
      const res = await retrieveWith(token, insight.id);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ id: insight.id, short_id: insight.short_id, name: insight.name, deleted: false });
      // force_cache (the default) becomes lazy_async for a shared view, so there is data to see.
      expect(body.result).toHaveLength(1);
      expect(body.result[0]).toMatchObject({ days: ['2024-01-01', '2024-01-02', '2024-01-03'], data: [1, 2, 0] });
      expect(Date.parse(body.last_refresh)).not.toBeNaN();
      // By short_id too, and through the environments path.
      const byShortId = await retrieveWith(token, insight.short_id);
      expect(byShortId.statusCode, byShortId.body).toBe(200);
      expect(byShortId.json()).toMatchObject({ id: insight.id, result: body.result });
      const env = await t.request(null, { method: 'GET', url: `/api/environments/${alice.projectId}/insights/${insight.id}/?sharing_access_token=${token}` });
      expect(env.statusCode).toBe(200);
      expect(env.json().id).toBe(insight.id);
    });

    it('the list shows that one insight only, whatever it is asked for', async () => {
      const { insight, token } = await shared();
      const other = await createInsight();
      const res = await listWith(token);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(body.count).toBe(1);
      expect(body.results.map((i: { id: number }) => i.id)).toEqual([insight.id]);
      expect(body.results[0].result[0].data).toEqual([1, 2, 0]);
      // Asking for another insight by its short_id finds nothing.
      const widened = await listWith(token, alice.projectId, `&short_id=${other.short_id}`);
      expect(widened.statusCode).toBe(200);
      expect(widened.json()).toMatchObject({ count: 0, results: [] });
    });

    it("the result's spreadsheet opens with the token too, one row per trends series", async () => {
      const { insight, token } = await shared();
      const res = await t.request(null, { method: 'GET', url: `${api()}/insights/${insight.id}/results.csv?sharing_access_token=${token}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const lines = res.body.split(/\r?\n/).filter((line) => line !== '');
      expect(lines).toEqual([insight.name, 'series,1-Jan-2024,2-Jan-2024,3-Jan-2024', '$pageview,1,2,0']);
      // Another insight's spreadsheet stays closed.
      const other = await createInsight();
      const refused = await t.request(null, { method: 'GET', url: `${api()}/insights/${other.id}/results.csv?sharing_access_token=${token}` });
      expect([403, 404]).toContain(refused.statusCode);
    });

    it('GET /shared/<token>.json answers JSON with the type and the insight; /shared/<token> is the page drawing it', async () => {
      const { insight, token } = await shared();
      const url = `/shared/${token}.json`;
      const res = await t.request(null, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      const body = res.json();
      expect(body.type, url).toEqual(expect.any(String));
      expect(body.insight, url).toMatchObject({ id: insight.id, short_id: insight.short_id, name: insight.name });
      expect(body.insight.result[0].data, url).toEqual([1, 2, 0]);
      const page = await t.request(null, { method: 'GET', url: `/shared/${token}` });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toMatch(/<html|<!doctype html/i);
    });
  });

  describe('what the token does not open', () => {
    let insight: Insight;
    let token: string;
    let neighbour: Insight;

    beforeAll(async () => {
      ({ insight, token } = await shared());
      neighbour = await createInsight();
    });

    it('a disabled configuration: 403 everywhere', async () => {
      const { insight: closed, token: closedToken } = await shared();
      await setSharing(closed, false);
      const [retrieve, list, page] = await allThree(closedToken, closed);
      expect(retrieve.statusCode).toBe(403);
      expect(list.statusCode).toBe(403);
      expect(page.statusCode).toBe(403);
      expect(retrieve.json()).toMatchObject({ type: 'authentication_error' });
    });

    it('an unknown token: 403 everywhere', async () => {
      for (const unknown of ['not-a-real-token-0123456789abc', 'x', 'a'.repeat(500)]) {
        const [retrieve, list, page] = await allThree(unknown, insight);
        expect(retrieve.statusCode, unknown).toBe(403);
        expect(list.statusCode, unknown).toBe(403);
        // An overlong path segment may be refused before routing (414); never opened.
        expect(unknown.length > 100 ? [403, 414] : [403], unknown).toContain(page.statusCode);
      }
    });

    it('another insight of the same project is not shown', async () => {
      for (const id of [String(neighbour.id), neighbour.short_id]) {
        const res = await retrieveWith(token, id);
        expect(res.statusCode, id).not.toBe(200);
        expect([403, 404], id).toContain(res.statusCode);
        expect(res.body, id).not.toContain(neighbour.name);
      }
    });

    it("another project's path: 403", async () => {
      const bobs = await createInsight({}, bob);
      for (const projectId of [bob.projectId, 999999, '@current']) {
        expect((await retrieveWith(token, insight.id, projectId)).statusCode, String(projectId)).toBe(403);
        expect((await retrieveWith(token, bobs.id, projectId)).statusCode, String(projectId)).toBe(403);
        expect((await listWith(token, projectId)).statusCode, String(projectId)).toBe(403);
      }
    });

    it('writes still need a key: 401, and nothing changes', async () => {
      const q = `?sharing_access_token=${token}`;
      const requests = [
        { method: 'PATCH' as const, url: `${api()}/insights/${insight.id}/${q}`, payload: { name: 'defaced' } },
        { method: 'PUT' as const, url: `${api()}/insights/${insight.id}/${q}`, payload: { name: 'defaced' } },
        { method: 'POST' as const, url: `${api()}/insights/${q}`, payload: { name: 'planted' } },
        { method: 'DELETE' as const, url: `${api()}/insights/${insight.id}/${q}` },
        { method: 'PATCH' as const, url: `${api()}/insights/${insight.id}/sharing/${q}`, payload: { enabled: false } },
        { method: 'POST' as const, url: `${api()}/insights/${insight.id}/sharing/refresh/${q}` },
      ];
      for (const request of requests) {
        const res = await t.request(null, request);
        expect(res.statusCode, `${request.method} ${request.url}`).toBe(401);
      }
      const after = await retrieveWith(token, insight.id);
      expect(after.statusCode).toBe(200);
      expect(after.json().name).toBe(insight.name);
      expect((await getSharing(insight)).access_token).toBe(token);
    });

    it('no other endpoint: 401', async () => {
      const q = `sharing_access_token=${token}`;
      for (const url of [
        `${api()}/insights/${insight.id}/activity/?${q}`,
        `${api()}/insights/activity/?${q}`,
        `${api()}/insights/${insight.id}/sharing/?${q}`,
        `${api()}/insights/my_last_viewed/?${q}`,
        `${api()}/dashboards/?${q}`,
        `/api/projects/${alice.projectId}/?${q}`,
      ]) {
        const res = await t.request(null, { method: 'GET', url });
        expect(res.statusCode, url).toBe(401);
      }
      const query = await t.request(null, { method: 'POST', url: `${api()}/query/?${q}`, payload: { query: trendsInsight().source } });
      expect(query.statusCode).toBe(401);
    });

    it('a deleted insight: 404 even with its valid token', async () => {
      const { insight: doomed, token: doomedToken } = await shared();
      await t.request(alice.key, { method: 'PATCH', url: `${api()}/insights/${doomed.id}/`, payload: { deleted: true } });
      expect((await retrieveWith(doomedToken, doomed.id)).statusCode).toBe(404);
      expect((await sharedPage(doomedToken)).statusCode).toBe(404);
      const list = await listWith(doomedToken);
      expect(list.statusCode === 404 || list.json().count === 0).toBe(true);
    });
  });

  it('enabling, disabling and refreshing are logged on the insight, newest first', async () => {
    const insight = await createInsight({ name: 'Logged sharing' });
    await setSharing(insight, true);
    await setSharing(insight, true); // no change: nothing logged
    await setSharing(insight, false);
    await refreshToken(insight);
    const res = await t.request(alice.key, { method: 'GET', url: `${api()}/insights/${insight.id}/activity/` });
    expect(res.statusCode).toBe(200);
    const entries = res.json().results as { activity: string; scope: string; item_id: string; detail: { short_id: string; name: string } }[];
    expect(entries.map((e) => e.activity)).toEqual(['access token refreshed', 'sharing disabled', 'sharing enabled', 'created']);
    for (const entry of entries) {
      expect(entry).toMatchObject({ scope: 'Insight', item_id: String(insight.id), detail: { short_id: insight.short_id, name: 'Logged sharing' } });
    }
  });

  it('needs sharing_configuration:read to read it and sharing_configuration:write to change it', async () => {
    const insight = await createInsight();
    const insightReader = await t.key(alice.email, ['insight:read']);
    const sharingReader = await t.key(alice.email, ['sharing_configuration:read']);
    const sharingWriter = await t.key(alice.email, ['sharing_configuration:write']);

    const get = (key: string) => t.request(key, { method: 'GET', url: sharingUrl(insight) });
    const patch = (key: string) => t.request(key, { method: 'PATCH', url: sharingUrl(insight), payload: { enabled: true } });
    const refresh = (key: string) => t.request(key, { method: 'POST', url: `${sharingUrl(insight)}refresh/` });

    const refusedRead = await get(insightReader);
    expect(refusedRead.statusCode).toBe(403);
    expect(refusedRead.json().detail).toBe("API key missing required scope 'sharing_configuration:read'");
    for (const res of [await patch(insightReader), await refresh(insightReader), await patch(sharingReader), await refresh(sharingReader)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe("API key missing required scope 'sharing_configuration:write'");
    }
    expect((await get(sharingReader)).statusCode).toBe(200);
    expect((await get(sharingReader)).json().enabled).toBe(false);
    expect((await patch(sharingWriter)).statusCode).toBe(200);
    expect((await refresh(sharingWriter)).statusCode).toBe(200);
    expect((await get(sharingWriter)).json().enabled).toBe(true);
    expect((await t.request(null, { method: 'GET', url: sharingUrl(insight) })).statusCode).toBe(401);
  });
});
