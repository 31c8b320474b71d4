// Dashboards as a client sees them: the resource (create, list, retrieve, update, soft delete),
// its two-way link with insights (an insight's `dashboards` and the dashboard's tiles), and the
// dashboard's filters laid over its tiles' results (from_dashboard and the dashboard's own view).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys, trendsQuery } from '../helpers/journeys.js';
import { META_STORES } from '../helpers/stores.js';

const PAGEVIEWS = [{ kind: 'EventsNode', event: '$pageview' }];
const trendsInsight = (from = '2024-01-01', to = '2024-01-05', extra: Record<string, unknown> = {}) => ({
  kind: 'InsightVizNode',
  source: trendsQuery(PAGEVIEWS, from, to, extra),
});
const CHROME_FILTER = { key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' };

describe.each(META_STORES)('Dashboards API on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  let bob: Credentials;
  const api = (c: Credentials = alice) => `/api/projects/${c.projectId}`;
  let counter = 0;
  const unique = (prefix: string) => `${prefix} ${++counter}`;

  const createDashboard = async (payload: Record<string, unknown> = {}, c: Credentials = alice) => {
    const res = await t.request(c.key, { method: 'POST', url: `${api(c)}/dashboards/`, payload: { name: unique('dashboard'), ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const getDashboard = (id: number, query = '', c: Credentials = alice) =>
    t.request(c.key, { method: 'GET', url: `${api(c)}/dashboards/${id}/${query}` });
  const patchDashboard = (id: number, payload: Record<string, unknown>, c: Credentials = alice) =>
    t.request(c.key, { method: 'PATCH', url: `${api(c)}/dashboards/${id}/`, payload });
  const createInsight = async (payload: Record<string, unknown> = {}, c: Credentials = alice) => {
    const res = await t.request(c.key, { method: 'POST', url: `${api(c)}/insights/`, payload: { name: unique('insight'), ...payload } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json();
  };
  const getInsight = (id: number | string, query = '', c: Credentials = alice) =>
    t.request(c.key, { method: 'GET', url: `${api(c)}/insights/${id}/${query}` });
  const patchInsight = (id: number, payload: Record<string, unknown>, c: Credentials = alice) =>
    t.request(c.key, { method: 'PATCH', url: `${api(c)}/insights/${id}/`, payload });
  const tileInsightIds = (dashboard: { tiles: { insight: { id: number } }[] }) => dashboard.tiles.map((tile) => tile.insight.id);
  const listInsightIds = async (query: string, c: Credentials = alice) => {
    const res = await t.request(c.key, { method: 'GET', url: `${api(c)}/insights/?basic=true&limit=1000&${query}` });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().results as { id: number }[]).map((i) => i.id).sort((a, b) => a - b);
  };

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
    bob = await t.bootstrap('bob@example.com', { organization: 'Bob Ltd' });
    // Pageviews over five days, Chrome and Firefox: all of them 2,2,3,4,1; Chrome only 1,2,1,3,1.
    const pv = (at: string, browser: string) => ev('$pageview', at, { $browser: browser });
    await journeys(t, alice, {
      u1: [pv('2024-01-01T10:00:00Z', 'Chrome'), pv('2024-01-02T10:00:00Z', 'Chrome'), pv('2024-01-03T10:00:00Z', 'Chrome'), pv('2024-01-04T10:00:00Z', 'Chrome')],
      u2: [pv('2024-01-01T11:00:00Z', 'Firefox'), pv('2024-01-03T11:00:00Z', 'Firefox'), pv('2024-01-03T12:00:00Z', 'Firefox'), pv('2024-01-04T11:00:00Z', 'Firefox')],
      u3: [pv('2024-01-02T12:00:00Z', 'Chrome'), pv('2024-01-04T12:00:00Z', 'Chrome'), pv('2024-01-04T13:00:00Z', 'Chrome'), pv('2024-01-05T10:00:00Z', 'Chrome')],
    });
  });
  afterAll(() => t.close());

  describe('the resource', () => {
    it("answers 201 with PostHog's dashboard fields, tags normalised and no tiles", async () => {
      const res = await t.request(alice.key, {
        method: 'POST',
        url: `${api()}/dashboards/`,
        payload: { name: 'Growth', description: 'Weekly numbers', pinned: true, tags: [' Growth', 'growth', 'Core '], filters: { date_from: '-7d' } },
      });
      expect(res.statusCode, res.body).toBe(201);
      const dashboard = res.json();
      expect(dashboard).toMatchObject({
        id: expect.any(Number),
        name: 'Growth',
        description: 'Weekly numbers',
        pinned: true,
        deleted: false,
        filters: { date_from: '-7d' },
        tiles: [],
        team_id: alice.projectId,
        effective_restriction_level: 21,
        effective_privilege_level: 37,
      });
      expect([...dashboard.tags].sort()).toEqual(['core', 'growth']);
      expect(dashboard.created_by).toMatchObject({ id: alice.userId, email: 'alice@example.com', first_name: 'alice', uuid: expect.any(String) });
      expect(Date.parse(dashboard.created_at)).not.toBeNaN();
      // What was created is what is read back.
      const read = await getDashboard(dashboard.id);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toEqual(dashboard);
    });

    it('defaults what was not given', async () => {
      const dashboard = await createDashboard({});
      expect(dashboard).toMatchObject({ description: '', pinned: false, deleted: false, tags: [], filters: {}, tiles: [] });
    });

    it('trims the name, as DRF does for a CharField', async () => {
      const dashboard = await createDashboard({ name: '  Padded name  ' });
      expect(dashboard.name).toBe('Padded name');
    });

    it('lists live dashboards paginated, pinned ones first', async () => {
      const owner = await t.bootstrap('lister@example.com', { organization: 'Lister' });
      const b = await createDashboard({ name: 'b' }, owner);
      await createDashboard({ name: 'a' }, owner);
      await createDashboard({ name: 'c', pinned: true }, owner);
      await createDashboard({ name: 'd' }, owner);
      const first = await t.request(owner.key, { method: 'GET', url: `${api(owner)}/dashboards/?limit=2` });
      expect(first.statusCode).toBe(200);
      const page1 = first.json();
      expect(page1.count).toBe(4);
      expect(page1.previous).toBeNull();
      expect(page1.results.map((d: { name: string }) => d.name)).toEqual(['c', 'a']);
      expect(page1.next).toMatch(/\/dashboards\/\?limit=2&offset=2$/);
      const second = await t.request(owner.key, { method: 'GET', url: new URL(page1.next).pathname + new URL(page1.next).search });
      const page2 = second.json();
      expect(page2.results.map((d: { name: string }) => d.name)).toEqual(['b', 'd']);
      expect(page2.next).toBeNull();
      expect(page2.previous).not.toBeNull();
      expect(page2.results[0]).toMatchObject({ id: b.id, pinned: false, team_id: owner.projectId, deleted: false });

      // Another project never sees them.
      const others = await t.request(bob.key, { method: 'GET', url: `${api(bob)}/dashboards/` });
      expect(others.json().results.map((d: { name: string }) => d.name)).not.toContain('c');
    });

    it('?search= keeps dashboards whose name or description contains the text, in any case, wildcards taken literally', async () => {
      const owner = await t.bootstrap('searcher@example.com', { organization: 'Searcher' });
      const revenue = await createDashboard({ name: 'Revenue', description: 'Money in' }, owner);
      const growth = await createDashboard({ name: 'Growth', description: 'all about REVENUE' }, owner);
      const percent = await createDashboard({ name: '100% done', description: '' }, owner);
      const underscore = await createDashboard({ name: 'a_b', description: 'back\\slash' }, owner);
      await createDashboard({ name: 'axb', description: '100 done' }, owner);
      const gone = await createDashboard({ name: 'Revenue (old)' }, owner);
      await patchDashboard(gone.id, { deleted: true }, owner);
      await createDashboard({ name: 'Revenue elsewhere' }, bob);

      const search = async (text: string, extra = '') => {
        const res = await t.request(owner.key, { method: 'GET', url: `${api(owner)}/dashboards/?search=${encodeURIComponent(text)}${extra}` });
        expect(res.statusCode, res.body).toBe(200);
        const body = res.json();
        return { count: body.count as number, ids: (body.results as { id: number }[]).map((d) => d.id).sort((a, b) => a - b), next: body.next as string | null };
      };
      expect(await search('revenue')).toMatchObject({ count: 2, ids: [revenue.id, growth.id] });
      expect((await search('MONEY')).ids).toEqual([revenue.id]);
      expect((await search('%')).ids).toEqual([percent.id]);
      expect((await search('_')).ids).toEqual([underscore.id]);
      expect((await search('\\')).ids).toEqual([underscore.id]);
      expect((await search('nothing like it')).ids).toEqual([]);
      expect((await search('')).count).toBe(5);
      // The search stays in the page links.
      expect((await search('e', '&limit=1')).next).toMatch(/[?&]search=e(&|$)/);
    });

    it('updates name, description, pinned, tags and filters', async () => {
      const dashboard = await createDashboard({ name: 'Before' });
      const res = await patchDashboard(dashboard.id, {
        name: 'After',
        description: 'Now described',
        pinned: true,
        tags: ['Ops'],
        filters: { date_from: '2024-01-03', date_to: '2024-01-04', properties: [CHROME_FILTER] },
      });
      expect(res.statusCode, res.body).toBe(200);
      const expected = {
        id: dashboard.id,
        name: 'After',
        description: 'Now described',
        pinned: true,
        tags: ['ops'],
        filters: { date_from: '2024-01-03', date_to: '2024-01-04', properties: [CHROME_FILTER] },
      };
      expect(res.json()).toMatchObject(expected);
      expect((await getDashboard(dashboard.id)).json()).toMatchObject(expected);
      // A partial update leaves the rest alone.
      const partial = await patchDashboard(dashboard.id, { pinned: false });
      expect(partial.json()).toMatchObject({ ...expected, pinned: false });
      // filters: null clears them.
      expect((await patchDashboard(dashboard.id, { filters: null })).json().filters).toEqual({});
    });

    it('soft-deletes with PATCH {deleted: true} and restores with {deleted: false}', async () => {
      const dashboard = await createDashboard({ name: 'Short-lived' });
      const deleted = await patchDashboard(dashboard.id, { deleted: true });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json().deleted).toBe(true);
      expect((await getDashboard(dashboard.id)).statusCode).toBe(404);
      const list = await t.request(alice.key, { method: 'GET', url: `${api()}/dashboards/?limit=1000` });
      expect(list.json().results.map((d: { id: number }) => d.id)).not.toContain(dashboard.id);
      // Only the restoring request reaches a deleted dashboard.
      expect((await patchDashboard(dashboard.id, { name: 'Renamed' })).statusCode).toBe(404);

      const restored = await patchDashboard(dashboard.id, { deleted: false });
      expect(restored.statusCode).toBe(200);
      expect(restored.json()).toMatchObject({ id: dashboard.id, deleted: false, name: 'Short-lived' });
      expect((await getDashboard(dashboard.id)).statusCode).toBe(200);
      const again = await t.request(alice.key, { method: 'GET', url: `${api()}/dashboards/?limit=1000` });
      expect(again.json().results.map((d: { id: number }) => d.id)).toContain(dashboard.id);
    });

    it('refuses DELETE with 405 and leaves the dashboard alone', async () => {
      const dashboard = await createDashboard();
      const res = await t.request(alice.key, { method: 'DELETE', url: `${api()}/dashboards/${dashboard.id}/` });
      expect(res.statusCode).toBe(405);
      expect((await getDashboard(dashboard.id)).statusCode).toBe(200);
    });

    it("answers DELETE with an empty body, as PostHog's ForbidDestroyModel (and Hoglet's insights) do", async () => {
      const dashboard = await createDashboard();
      const res = await t.request(alice.key, { method: 'DELETE', url: `${api()}/dashboards/${dashboard.id}/` });
      expect(res.statusCode).toBe(405);
      expect(res.body).toBe('');
    });

    it("answers 404 for unknown, malformed or other-project ids, and for another organization's project", async () => {
      for (const id of ['999999', 'abc', '0', '-1']) expect((await t.request(alice.key, { method: 'GET', url: `${api()}/dashboards/${id}/` })).statusCode, id).toBe(404);
      const bobs = await createDashboard({}, bob);
      expect((await t.request(alice.key, { method: 'GET', url: `${api()}/dashboards/${bobs.id}/` })).statusCode).toBe(404);
      expect((await t.request(alice.key, { method: 'PATCH', url: `${api()}/dashboards/${bobs.id}/`, payload: { name: 'mine' } })).statusCode).toBe(404);
      // Another organization's project looks as if it did not exist (Hoglet's rule, as for actions).
      expect((await t.request(alice.key, { method: 'GET', url: `${api(bob)}/dashboards/${bobs.id}/` })).statusCode).toBe(404);
      expect((await t.request(alice.key, { method: 'GET', url: `${api(bob)}/dashboards/` })).statusCode).toBe(404);
      expect((await getDashboard(bobs.id, '', bob)).json().name).toBe(bobs.name);
    });

    it('needs dashboard:read to read and dashboard:write to write', async () => {
      const dashboard = await createDashboard();
      const reader = await t.key(alice.email, ['dashboard:read']);
      expect((await t.request(reader, { method: 'GET', url: `${api()}/dashboards/${dashboard.id}/` })).statusCode).toBe(200);
      const refused = await t.request(reader, { method: 'PATCH', url: `${api()}/dashboards/${dashboard.id}/`, payload: { name: 'x' } });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().detail).toBe("API key missing required scope 'dashboard:write'");
      const insightOnly = await t.key(alice.email, ['insight:read']);
      expect((await t.request(insightOnly, { method: 'GET', url: `${api()}/dashboards/` })).statusCode).toBe(403);
      expect((await t.request(null, { method: 'GET', url: `${api()}/dashboards/` })).statusCode).toBe(401);
    });

    it('validates filters', async () => {
      const dashboard = await createDashboard();
      const notADict = await patchDashboard(dashboard.id, { filters: [1] });
      expect(notADict.statusCode).toBe(400);
      expect(notADict.json()).toMatchObject({ type: 'validation_error', attr: 'filters' });
      const badProperty = await patchDashboard(dashboard.id, { filters: { properties: [{ bad: 1 }] } });
      expect(badProperty.statusCode).toBe(400);
      expect(badProperty.json().type).toBe('validation_error');
      expect(badProperty.json().attr).toMatch(/^filters/);
      const badDate = await patchDashboard(dashboard.id, { filters: { date_from: 5 } });
      expect(badDate.statusCode).toBe(400);
      expect(badDate.json().attr).toMatch(/^filters/);
      // On create too.
      const create = await t.request(alice.key, { method: 'POST', url: `${api()}/dashboards/`, payload: { name: 'x', filters: [1] } });
      expect(create.statusCode).toBe(400);
      // Nothing of the refused updates was kept.
      expect((await getDashboard(dashboard.id)).json().filters).toEqual({});
    });
  });

  describe('linking insights and dashboards', () => {
    it("PATCH an insight's dashboards puts it on each, both ways, and removing one takes it off", async () => {
      const d1 = await createDashboard({ name: 'Links one' });
      const d2 = await createDashboard({ name: 'Links two' });
      const insight = await createInsight({ query: trendsInsight() });
      expect(insight).toMatchObject({ dashboards: [], dashboard_tiles: [] });

      const linked = await patchInsight(insight.id, { dashboards: [d1.id, d2.id] });
      expect(linked.statusCode, linked.body).toBe(200);
      expect([...linked.json().dashboards].sort()).toEqual([d1.id, d2.id].sort());
      const tiles = linked.json().dashboard_tiles as { id: number; dashboard_id: number; deleted: boolean | null }[];
      expect(tiles).toHaveLength(2);
      for (const tile of tiles) {
        expect(tile).toEqual({ id: expect.any(Number), dashboard_id: expect.any(Number), deleted: expect.toBeOneOf([null, false]) });
      }
      const tileOnD1 = tiles.find((tile) => tile.dashboard_id === d1.id)!;
      expect(tileOnD1).toBeDefined();

      const onD1 = (await getDashboard(d1.id)).json();
      expect(onD1.tiles).toHaveLength(1);
      expect(onD1.tiles[0]).toMatchObject({ id: tileOnD1.id, insight: { id: insight.id, short_id: insight.short_id, name: insight.name } });
      expect(tileInsightIds((await getDashboard(d2.id)).json())).toEqual([insight.id]);
      // A retrieve agrees.
      expect([...(await getInsight(insight.id)).json().dashboards].sort()).toEqual([d1.id, d2.id].sort());

      const narrowed = await patchInsight(insight.id, { dashboards: [d2.id] });
      expect(narrowed.json().dashboards).toEqual([d2.id]);
      expect(narrowed.json().dashboard_tiles.map((tile: { dashboard_id: number }) => tile.dashboard_id)).toEqual([d2.id]);
      expect((await getDashboard(d1.id)).json().tiles).toEqual([]);
      expect(tileInsightIds((await getDashboard(d2.id)).json())).toEqual([insight.id]);

      // Putting it back brings back the same tile.
      const readded = await patchInsight(insight.id, { dashboards: [d2.id, d1.id] });
      expect([...readded.json().dashboards].sort()).toEqual([d1.id, d2.id].sort());
      const back = (await getDashboard(d1.id)).json();
      expect(back.tiles.map((tile: { id: number }) => tile.id)).toEqual([tileOnD1.id]);
      expect(readded.json().dashboard_tiles.find((tile: { dashboard_id: number }) => tile.dashboard_id === d1.id).id).toBe(tileOnD1.id);

      // An empty list takes it off everything.
      const cleared = await patchInsight(insight.id, { dashboards: [] });
      expect(cleared.json()).toMatchObject({ dashboards: [], dashboard_tiles: [] });
      expect((await getDashboard(d2.id)).json().tiles).toEqual([]);
    });

    it('logs the change of dashboards on the insight, with names', async () => {
      const d1 = await createDashboard({ name: 'Logged one' });
      const insight = await createInsight({ query: trendsInsight() });
      await patchInsight(insight.id, { dashboards: [d1.id] });
      const log = await t.request(alice.key, { method: 'GET', url: `${api()}/insights/${insight.id}/activity/` });
      expect(log.statusCode).toBe(200);
      const changes = log.json().results[0].detail.changes as { field: string }[];
      expect(changes).toContainEqual({ type: 'Insight', action: 'changed', field: 'dashboards', before: [], after: [{ id: d1.id, name: 'Logged one' }] });
    });

    it('creates an insight straight onto dashboards with dashboards in the POST body', async () => {
      const d1 = await createDashboard();
      const insight = await createInsight({ query: trendsInsight(), dashboards: [d1.id] });
      expect(insight.dashboards).toEqual([d1.id]);
      expect(insight.dashboard_tiles).toEqual([{ id: expect.any(Number), dashboard_id: d1.id, deleted: expect.toBeOneOf([null, false]) }]);
      const dashboard = (await getDashboard(d1.id)).json();
      expect(dashboard.tiles).toHaveLength(1);
      expect(dashboard.tiles[0]).toMatchObject({ id: insight.dashboard_tiles[0].id, insight: { id: insight.id } });
    });

    it('refuses an unknown or other-project dashboard id, with attr dashboards and code does_not_exist', async () => {
      const insight = await createInsight({ query: trendsInsight() });
      const bobs = await createDashboard({}, bob);
      for (const id of [999999, bobs.id]) {
        const res = await patchInsight(insight.id, { dashboards: [id] });
        expect(res.statusCode, String(id)).toBe(400);
        expect(res.json(), String(id)).toMatchObject({ type: 'validation_error', code: 'does_not_exist', attr: 'dashboards' });
      }
      const create = await t.request(alice.key, { method: 'POST', url: `${api()}/insights/`, payload: { name: 'nope', dashboards: [999999] } });
      expect(create.statusCode).toBe(400);
      expect(create.json()).toMatchObject({ code: 'does_not_exist', attr: 'dashboards' });
      // Bob's dashboard was not touched, and the refused insight was not created.
      expect((await getDashboard(bobs.id, '', bob)).json().tiles).toEqual([]);
      expect((await getInsight(insight.id)).json().dashboards).toEqual([]);
      const search = await t.request(alice.key, { method: 'GET', url: `${api()}/insights/?basic=true&search=nope` });
      expect(search.json().count).toBe(0);
    });

    it('a soft-deleted dashboard leaves every insight\'s dashboards, and is skipped when named', async () => {
      const live = await createDashboard();
      const doomed = await createDashboard();
      const insight = await createInsight({ query: trendsInsight(), dashboards: [live.id, doomed.id] });
      expect(insight.dashboards).toHaveLength(2);
      await patchDashboard(doomed.id, { deleted: true });
      const read = (await getInsight(insight.id)).json();
      expect(read.dashboards).toEqual([live.id]);
      expect(read.dashboard_tiles.map((tile: { dashboard_id: number }) => tile.dashboard_id)).toEqual([live.id]);
      // Naming it again is not an error, and does not bring it back.
      const renamed = await patchInsight(insight.id, { dashboards: [live.id, doomed.id] });
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json().dashboards).toEqual([live.id]);
      const listed = await t.request(alice.key, { method: 'GET', url: `${api()}/insights/?basic=true&short_id=${insight.short_id}` });
      expect(listed.json().results[0].dashboards).toEqual([live.id]);
    });

    it("soft-deleting the insight takes it off its dashboards' tiles", async () => {
      const d1 = await createDashboard();
      const keep = await createInsight({ query: trendsInsight(), dashboards: [d1.id] });
      const doomed = await createInsight({ query: trendsInsight(), dashboards: [d1.id] });
      expect(tileInsightIds((await getDashboard(d1.id)).json()).sort()).toEqual([keep.id, doomed.id].sort());
      expect((await patchInsight(doomed.id, { deleted: true })).statusCode).toBe(200);
      expect(tileInsightIds((await getDashboard(d1.id)).json())).toEqual([keep.id]);
      expect(await listInsightIds(`dashboards=[${d1.id}]`)).toEqual([keep.id]);
    });

    it('lists by ?dashboards= (on all of them) and ?saved=true (saved, or on a live dashboard)', async () => {
      const owner = await t.bootstrap('filters@example.com', { organization: 'Filters' });
      const d1 = await createDashboard({}, owner);
      const d2 = await createDashboard({}, owner);
      const both = await createInsight({ query: trendsInsight(), dashboards: [d1.id, d2.id], saved: true }, owner);
      const onD1Unsaved = await createInsight({ query: trendsInsight(), dashboards: [d1.id] }, owner);
      expect(onD1Unsaved.saved).toBe(false);
      const onD2Unsaved = await createInsight({ query: trendsInsight(), dashboards: [d2.id] }, owner);
      const savedAlone = await createInsight({ query: trendsInsight(), saved: true }, owner);
      const draft = await createInsight({ query: trendsInsight() }, owner);
      const byId = (...insights: { id: number }[]) => insights.map((i) => i.id).sort((a, b) => a - b);

      expect(await listInsightIds(`dashboards=[${d1.id}]`, owner)).toEqual(byId(both, onD1Unsaved));
      expect(await listInsightIds(`dashboards=[${d2.id}]`, owner)).toEqual(byId(both, onD2Unsaved));
      expect(await listInsightIds(`dashboards=[${d1.id},${d2.id}]`, owner)).toEqual(byId(both));
      expect(await listInsightIds('saved=true', owner)).toEqual(byId(both, onD1Unsaved, onD2Unsaved, savedAlone));
      expect(await listInsightIds('saved=false', owner)).toEqual(byId(onD1Unsaved, onD2Unsaved, draft));

      // A deleted dashboard no longer makes its insights saved, nor lists them.
      await patchDashboard(d2.id, { deleted: true }, owner);
      expect(await listInsightIds('saved=true', owner)).toEqual(byId(both, onD1Unsaved, savedAlone));
      expect(await listInsightIds(`dashboards=[${d2.id}]`, owner)).toEqual([]);
      // Nor does a tile removed from the dashboard.
      const d1Tiles = (await getDashboard(d1.id, '', owner)).json().tiles as { id: number; insight: { id: number } }[];
      const tile = d1Tiles.find((tt) => tt.insight.id === onD1Unsaved.id)!;
      await patchDashboard(d1.id, { tiles: [{ id: tile.id, deleted: true }] }, owner);
      expect(await listInsightIds('saved=true', owner)).toEqual(byId(both, savedAlone));
      expect(await listInsightIds(`dashboards=[${d1.id}]`, owner)).toEqual(byId(both));
    });

    it("PATCH a dashboard's tiles: color and layouts persist, deleted: true removes the tile", async () => {
      const d1 = await createDashboard();
      const d2 = await createDashboard();
      const insight = await createInsight({ query: trendsInsight(), dashboards: [d1.id] });
      const tileId = insight.dashboard_tiles[0].id as number;
      const layouts = { sm: { x: 0, y: 0, w: 6, h: 5 } };

      const styled = await patchDashboard(d1.id, { tiles: [{ id: tileId, color: 'blue', layouts }] });
      expect(styled.statusCode, styled.body).toBe(200);
      expect(styled.json().tiles).toEqual([expect.objectContaining({ id: tileId, color: 'blue', layouts, insight: expect.objectContaining({ id: insight.id }) })]);
      expect((await getDashboard(d1.id)).json().tiles[0]).toMatchObject({ id: tileId, color: 'blue', layouts });

      // A tile of another dashboard, or no tile at all, is refused.
      for (const id of [tileId, 999999]) {
        const res = await patchDashboard(d2.id, { tiles: [{ id, color: 'red' }] });
        expect(res.statusCode, String(id)).toBe(400);
        expect(res.json().attr).toBe('tiles__0__id');
      }
      expect((await getDashboard(d1.id)).json().tiles[0].color).toBe('blue');

      const removed = await patchDashboard(d1.id, { tiles: [{ id: tileId, deleted: true }] });
      expect(removed.statusCode).toBe(200);
      expect(removed.json().tiles).toEqual([]);
      expect((await getDashboard(d1.id)).json().tiles).toEqual([]);
      expect((await getInsight(insight.id)).json()).toMatchObject({ dashboards: [], dashboard_tiles: [] });

      // Putting the insight back on brings back that tile, styled as before.
      await patchInsight(insight.id, { dashboards: [d1.id] });
      expect((await getDashboard(d1.id)).json().tiles).toEqual([expect.objectContaining({ id: tileId, color: 'blue', layouts })]);
    });
  });

  describe("the dashboard's filters over its tiles", () => {
    let insight: { id: number; short_id: string };
    let dashboard: { id: number };
    const ALL_DAYS = ['2024-01-01', '2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'];

    beforeAll(async () => {
      dashboard = await createDashboard({
        name: 'Chrome mid-week',
        filters: { date_from: '2024-01-03', date_to: '2024-01-04', properties: [CHROME_FILTER] },
      });
      insight = await createInsight({ query: trendsInsight('2024-01-01', '2024-01-05'), dashboards: [dashboard.id] });
    });

    it('from_dashboard narrows the range and adds the properties; without it the insight is as saved', async () => {
      const viaDashboard = await getInsight(insight.id, `?from_dashboard=${dashboard.id}&refresh=blocking`);
      expect(viaDashboard.statusCode, viaDashboard.body).toBe(200);
      const [series] = viaDashboard.json().result;
      expect(series.days).toEqual(['2024-01-03', '2024-01-04']);
      expect(series.data).toEqual([1, 3]);
      expect(series.count).toBe(4);

      const own = await getInsight(insight.id, '?refresh=blocking');
      expect(own.statusCode, own.body).toBe(200);
      const [ownSeries] = own.json().result;
      expect(ownSeries.days).toEqual(ALL_DAYS);
      expect(ownSeries.data).toEqual([2, 2, 3, 4, 1]);
      // The insight itself was not changed by being seen through the dashboard.
      expect(own.json().query).toEqual(trendsInsight('2024-01-01', '2024-01-05'));
      // And the short_id reaches the same thing.
      const byShortId = await getInsight(insight.short_id, `?from_dashboard=${dashboard.id}&refresh=blocking`);
      expect(byShortId.json().result[0].data).toEqual([1, 3]);
    });

    it('a dashboard with only properties keeps the insight\'s range', async () => {
      const chromeOnly = await createDashboard({ filters: { properties: [CHROME_FILTER] } });
      await patchInsight(insight.id, { dashboards: [dashboard.id, chromeOnly.id] });
      const res = await getInsight(insight.id, `?from_dashboard=${chromeOnly.id}&refresh=blocking`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result[0]).toMatchObject({ days: ALL_DAYS, data: [1, 2, 1, 3, 1] });
    });

    it("the dashboard's properties are added to the insight's own, not put in their place", async () => {
      const firefoxInsight = await createInsight({
        query: trendsInsight('2024-01-01', '2024-01-05', { properties: [{ key: '$browser', value: 'Firefox', operator: 'exact', type: 'event' }] }),
        dashboards: [dashboard.id],
      });
      const own = await getInsight(firefoxInsight.id, '?refresh=blocking');
      expect(own.json().result[0].data).toEqual([1, 0, 2, 1, 0]);
      // Firefox AND Chrome: nothing.
      const res = await getInsight(firefoxInsight.id, `?from_dashboard=${dashboard.id}&refresh=blocking`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result[0]).toMatchObject({ days: ['2024-01-03', '2024-01-04'], data: [0, 0] });
      await patchInsight(firefoxInsight.id, { deleted: true });
    });

    it('GET the dashboard with ?refresh=blocking shows the filtered result in the tile, then serves it from the cache', async () => {
      const res = await getDashboard(dashboard.id, '?refresh=blocking');
      expect(res.statusCode, res.body).toBe(200);
      const tile = res.json().tiles.find((tt: { insight: { id: number } }) => tt.insight.id === insight.id);
      expect(tile).toBeDefined();
      expect(tile.insight.result[0]).toMatchObject({ days: ['2024-01-03', '2024-01-04'], data: [1, 3] });
      expect(Date.parse(tile.insight.last_refresh)).not.toBeNaN();

      // Without refresh the dashboard shows what was calculated, never the unfiltered result.
      const cached = await getDashboard(dashboard.id);
      const cachedTile = cached.json().tiles.find((tt: { insight: { id: number } }) => tt.insight.id === insight.id);
      expect(cachedTile.insight.result[0]).toMatchObject({ days: ['2024-01-03', '2024-01-04'], data: [1, 3] });
      expect(cachedTile.insight.is_cached).toBe(true);
    });

    it('a change of the dashboard\'s filters shows at once', async () => {
      const moving = await createDashboard({ filters: { date_from: '2024-01-01', date_to: '2024-01-02' } });
      await patchInsight(insight.id, { dashboards: [dashboard.id, moving.id] });
      const before = (await getDashboard(moving.id, '?refresh=blocking')).json().tiles[0].insight.result[0];
      expect(before).toMatchObject({ days: ['2024-01-01', '2024-01-02'], data: [2, 2] });
      await patchDashboard(moving.id, { filters: { date_from: '2024-01-04', date_to: '2024-01-05', properties: [CHROME_FILTER] } });
      const after = (await getDashboard(moving.id, '?refresh=blocking')).json().tiles[0].insight.result[0];
      expect(after).toMatchObject({ days: ['2024-01-04', '2024-01-05'], data: [3, 1] });
    });

    it('?filters_override= shows the tiles through other filters for that answer only', async () => {
      const override = encodeURIComponent(JSON.stringify({ date_from: '2024-01-01', date_to: '2024-01-02' }));
      const res = await getDashboard(dashboard.id, `?refresh=blocking&filters_override=${override}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      // The override's dates replace the stored ones; the stored properties (Chrome) still apply.
      const tile = body.tiles.find((tt: { insight: { id: number } }) => tt.insight.id === insight.id);
      expect(tile.insight.result[0]).toMatchObject({ days: ['2024-01-01', '2024-01-02'], data: [1, 2] });
      expect(body.filters).toEqual({ date_from: '2024-01-01', date_to: '2024-01-02', properties: [CHROME_FILTER] });
      expect(body.persisted_filters).toEqual({ date_from: '2024-01-03', date_to: '2024-01-04', properties: [CHROME_FILTER] });
      // Nothing was saved.
      const plain = (await getDashboard(dashboard.id, '?refresh=blocking')).json();
      expect(plain.filters).toEqual(plain.persisted_filters);
      expect(plain.tiles.find((tt: { insight: { id: number } }) => tt.insight.id === insight.id).insight.result[0].days).toEqual(['2024-01-03', '2024-01-04']);
      // Not JSON, or not filters: 400 naming it.
      const notJson = await getDashboard(dashboard.id, '?filters_override=%7Bnope');
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json()).toMatchObject({ type: 'validation_error', attr: 'filters_override' });
      const badDate = await getDashboard(dashboard.id, `?filters_override=${encodeURIComponent(JSON.stringify({ date_from: 5 }))}`);
      expect(badDate.statusCode).toBe(400);
    });

    it('refuses a from_dashboard that is deleted, of another project or not an id, with attr from_dashboard', async () => {
      const deleted = await createDashboard({ filters: { date_from: '2024-01-02' } });
      await patchDashboard(deleted.id, { deleted: true });
      const bobs = await createDashboard({ filters: { date_from: '2024-01-02' } }, bob);
      for (const id of [String(deleted.id), String(bobs.id), '999999', 'abc']) {
        const res = await getInsight(insight.id, `?from_dashboard=${id}&refresh=blocking`);
        expect(res.statusCode, id).toBe(400);
        expect(res.json(), id).toMatchObject({ type: 'validation_error', attr: 'from_dashboard' });
      }
    });
  });
});
