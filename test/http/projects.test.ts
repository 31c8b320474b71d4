import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MembershipLevel } from '../../src/core/auth/principal.js';
import { PROJECT_SETTING_NAMES } from '../../src/core/projects/settings-catalog.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { META_STORES } from '../helpers/stores.js';

// The spec's reduced project form of the list: exactly these 11 fields (no project_id).
const REDUCED_FIELDS = [
  'id', 'uuid', 'organization', 'api_token', 'name', 'completed_snippet_onboarding',
  'has_completed_onboarding_for', 'ingested_event', 'is_demo', 'timezone', 'access_control',
].sort();

// Every field of the spec's Project table.
const SPEC_FIELDS = [
  'id', 'uuid', 'organization', 'api_token', 'name', 'created_at', 'updated_at', 'effective_membership_level',
  'has_group_types', 'live_events_token', 'ingested_event', 'person_on_events_querying_enabled', 'default_modifiers',
  ...PROJECT_SETTING_NAMES,
];

describe.each(META_STORES)('Projects API on %s', (store) => {
  let t: TestApp;
  let alice: Credentials;
  const base = () => `/api/organizations/${alice.organizationId}/projects`;

  beforeAll(async () => {
    t = await createTestApp(store);
    alice = await t.bootstrap('alice@example.com', { organization: 'Alice Inc' });
  });
  afterAll(() => t.close());

  describe('create', () => {
    it('applies PostHog defaults and returns every field of the spec', async () => {
      const res = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'Web' } });
      expect(res.statusCode).toBe(201);
      const project = res.json();
      for (const field of SPEC_FIELDS) expect(project, field).toHaveProperty(field);
      expect(project).toMatchObject({
        name: 'Web',
        organization: alice.organizationId,
        timezone: 'UTC',
        anonymize_ips: false,
        completed_snippet_onboarding: false,
        ingested_event: false,
        is_demo: false,
        session_recording_opt_in: false,
        session_recording_sample_rate: null,
        capture_console_log_opt_in: true,
        capture_performance_opt_in: true,
        data_attributes: ['data-attr'],
        app_urls: [],
        recording_domains: [],
        path_cleaning_filters: [],
        correlation_config: {},
        week_start_day: null,
        primary_dashboard: null,
        effective_membership_level: MembershipLevel.owner,
        has_group_types: false,
      });
      expect(project.id).toBe(project.project_id);
      expect(project.api_token).toMatch(/^phc_[0-9A-Za-z]{43}$/);
      expect(project.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(Date.parse(project.created_at)).not.toBeNaN();
      expect(project.test_account_filters).toEqual([
        { key: '$host', operator: 'not_regex', value: '^(localhost|127\\.0\\.0\\.1)($|:)', type: 'event' },
      ]);
    });

    it('names an unnamed project "Default project N" and refuses a duplicate name with 409', async () => {
      const first = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: {} });
      expect(first.statusCode).toBe(201);
      expect(first.json().name).toBe('Default project 2');
      const duplicate = await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'Web' } });
      expect(duplicate.statusCode).toBe(409);
      expect(duplicate.json()).toEqual({
        type: 'server_error',
        code: 'conflict',
        detail: 'There is already a project called "Web" in this organization. Choose a different name.',
        attr: null,
      });
    });

    it('takes every writable field on create and ignores read-only ones', async () => {
      const res = await t.request(alice.key, {
        method: 'POST',
        url: `${base()}/`,
        payload: {
          name: 'Full',
          timezone: 'Europe/Lisbon',
          week_start_day: 1,
          session_recording_sample_rate: 0.5,
          app_urls: ['https://a.example', null],
          id: 999999,
          api_token: 'phc_mine',
          organization: '00000000-0000-0000-0000-000000000000',
          ingested_event: true,
          effective_membership_level: 1,
        },
      });
      expect(res.statusCode).toBe(201);
      const project = res.json();
      expect(project).toMatchObject({
        timezone: 'Europe/Lisbon',
        week_start_day: 1,
        session_recording_sample_rate: '0.50',
        app_urls: ['https://a.example'],
        organization: alice.organizationId,
        ingested_event: false,
        effective_membership_level: MembershipLevel.owner,
      });
      expect(project.id).not.toBe(999999);
      expect(project.api_token).not.toBe('phc_mine');
    });

    it('logs a created entry in the activity log', async () => {
      const created = (await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'Logged' } })).json();
      const res = await t.request(alice.key, { method: 'GET', url: `${base()}/${created.id}/activity/` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        total_count: 1,
        next: null,
        previous: null,
        results: [
          {
            activity: 'created',
            scope: 'Team',
            item_id: String(created.id),
            user: { first_name: 'alice', email: 'alice@example.com' },
            detail: { changes: null, name: 'Logged' },
          },
        ],
      });
    });
  });

  describe('retrieve and list', () => {
    it('retrieves by organization path, by /api/projects/ and by @current', async () => {
      const byOrg = await t.request(alice.key, { method: 'GET', url: `${base()}/${alice.projectId}/` });
      const byProject = await t.request(alice.key, { method: 'GET', url: `/api/projects/${alice.projectId}/` });
      const current = await t.request(alice.key, { method: 'GET', url: `/api/organizations/@current/projects/${alice.projectId}/` });
      expect(byOrg.statusCode).toBe(200);
      expect(byProject.json()).toEqual(byOrg.json());
      expect(current.json()).toEqual(byOrg.json());
      expect(byOrg.json().name).toBe('Default project');
    });

    it('works without the trailing slash too', async () => {
      const res = await t.request(alice.key, { method: 'GET', url: `${base()}/${alice.projectId}` });
      expect(res.statusCode).toBe(200);
    });

    it('lists exactly the reduced form in a pagination envelope, under both paths', async () => {
      expect(REDUCED_FIELDS).toHaveLength(11);
      for (const url of [`${base()}/`, '/api/projects/']) {
        const res = await t.request(alice.key, { method: 'GET', url });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(body.count).toBe(body.results.length);
        expect(body.results.length).toBeGreaterThan(0);
        expect(body.next).toBeNull();
        expect(body.previous).toBeNull();
        for (const project of body.results) expect(Object.keys(project).sort(), url).toEqual(REDUCED_FIELDS);
      }
    });

    it('walks every page with absolute next/previous links, in a stable order', async () => {
      const org = await t.bootstrap('pager@example.com', { organization: 'Pager' });
      for (let i = 0; i < 6; i++) {
        const res = await t.request(org.key, {
          method: 'POST',
          url: `/api/organizations/${org.organizationId}/projects/`,
          payload: { name: `P${i}` },
        });
        expect(res.statusCode).toBe(201);
      }
      const seen: number[] = [];
      let url: string | null = `/api/organizations/${org.organizationId}/projects/?limit=3&search=x`;
      const pages: Array<{ next: string | null; previous: string | null; count: number }> = [];
      while (url) {
        const res = await t.request(org.key, { method: 'GET', url });
        expect(res.statusCode).toBe(200);
        const body = res.json();
        pages.push(body);
        seen.push(...body.results.map((p: { id: number }) => p.id));
        url = body.next ? body.next.replace(/^http:\/\/localhost:80/, '') : null;
      }
      expect(pages).toHaveLength(3);
      expect(pages.every((p) => p.count === 7)).toBe(true);
      expect(seen).toEqual([...seen].sort((a, b) => a - b));
      expect(new Set(seen).size).toBe(7);
      expect(pages[0]!.next).toBe(
        `http://localhost:80/api/organizations/${org.organizationId}/projects/?limit=3&offset=3&search=x`,
      );
      expect(pages[1]!.previous).toBe(`http://localhost:80/api/organizations/${org.organizationId}/projects/?limit=3&search=x`);
      expect(pages[2]!.previous).toBe(
        `http://localhost:80/api/organizations/${org.organizationId}/projects/?limit=3&offset=3&search=x`,
      );
      expect(pages[2]!.next).toBeNull();
    });

    it('falls back to the default page size for a bad limit, as DRF does', async () => {
      const res = await t.request(alice.key, { method: 'GET', url: `${base()}/?limit=abc&offset=-4` });
      expect(res.statusCode).toBe(200);
      expect(res.json().results.length).toBe(res.json().count);
    });

    it('uses SITE_URL for absolute links when configured', async () => {
      const site = await createTestApp(store, { SITE_URL: 'https://hoglet.example.com/' });
      try {
        const org = await site.bootstrap('site@example.com');
        await site.request(org.key, { method: 'POST', url: '/api/projects/', payload: { name: 'Second' } });
        const res = await site.request(org.key, { method: 'GET', url: '/api/projects/?limit=1' });
        expect(res.json().next).toBe('https://hoglet.example.com/api/projects/?limit=1&offset=1');
      } finally {
        await site.close();
      }
    });
  });

  describe('update', () => {
    it('takes a live dashboard of the project as primary_dashboard, and no other', async () => {
      const project = (await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'With dashboards' } })).json();
      const dashboard = (await t.request(alice.key, { method: 'POST', url: `/api/projects/${project.id}/dashboards/`, payload: { name: 'Main' } })).json();
      const other = (await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/dashboards/`, payload: { name: 'Elsewhere' } })).json();
      const set = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${project.id}/`, payload: { primary_dashboard: dashboard.id } });
      expect(set.statusCode).toBe(200);
      expect(set.json().primary_dashboard).toBe(dashboard.id);
      const foreign = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${project.id}/`, payload: { primary_dashboard: other.id } });
      expect(foreign.json()).toMatchObject({ attr: 'primary_dashboard', detail: 'Dashboard does not belong to this team.' });
      await t.request(alice.key, { method: 'PATCH', url: `/api/projects/${project.id}/dashboards/${dashboard.id}/`, payload: { deleted: true } });
      const deleted = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${project.id}/`, payload: { primary_dashboard: dashboard.id } });
      expect(deleted.statusCode).toBe(400);
    });

    it('changes writable fields, logs each change, and reads back the decimal as a string', async () => {
      const project = (await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'Patchable' } })).json();
      const res = await t.request(alice.key, {
        method: 'PATCH',
        url: `${base()}/${project.id}/`,
        payload: { timezone: 'America/New_York', session_recording_sample_rate: '0.4', anonymize_ips: true },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        timezone: 'America/New_York',
        session_recording_sample_rate: '0.40',
        anonymize_ips: true,
      });
      expect(res.json().updated_at >= project.updated_at).toBe(true);
      const reread = (await t.request(alice.key, { method: 'GET', url: `/api/projects/${project.id}/` })).json();
      expect(reread.session_recording_sample_rate).toBe('0.40');

      const log = (await t.request(alice.key, { method: 'GET', url: `${base()}/${project.id}/activity/` })).json();
      expect(log.total_count).toBe(2);
      expect(log.results[0].activity).toBe('updated');
      expect(log.results[0].detail.changes).toEqual([
        { type: 'Team', action: 'changed', field: 'anonymize_ips', before: false, after: true },
        { type: 'Team', action: 'changed', field: 'timezone', before: 'UTC', after: 'America/New_York' },
        { type: 'Team', action: 'created', field: 'session_recording_sample_rate', before: null, after: '0.40' },
      ]);
    });

    it('merges session_replay_config instead of replacing it', async () => {
      const url = `${base()}/${alice.projectId}/`;
      await t.request(alice.key, { method: 'PATCH', url, payload: { session_replay_config: { record_canvas: true } } });
      const res = await t.request(alice.key, { method: 'PATCH', url, payload: { session_replay_config: { ai_config: { opt_in: true } } } });
      expect(res.json().session_replay_config).toEqual({ record_canvas: true, ai_config: { opt_in: true } });
    });

    it('ignores read-only fields (mass assignment)', async () => {
      const url = `${base()}/${alice.projectId}/`;
      const before = (await t.request(alice.key, { method: 'GET', url })).json();
      const res = await t.request(alice.key, {
        method: 'PATCH',
        url,
        payload: {
          id: 4242,
          uuid: '00000000-0000-0000-0000-000000000000',
          organization: '00000000-0000-0000-0000-000000000000',
          api_token: 'phc_stolen',
          created_at: '2000-01-01T00:00:00Z',
          ingested_event: true,
          has_group_types: true,
          effective_membership_level: 1,
          default_modifiers: { evil: true },
        },
      });
      expect(res.statusCode).toBe(200);
      const after = (await t.request(alice.key, { method: 'GET', url })).json();
      for (const field of ['id', 'uuid', 'organization', 'api_token', 'created_at', 'ingested_event', 'has_group_types', 'effective_membership_level', 'default_modifiers']) {
        expect(after[field], field).toEqual(before[field]);
      }
    });

    it('answers validation errors in PostHog\'s exact bodies and changes nothing', async () => {
      const url = `${base()}/${alice.projectId}/`;
      const before = (await t.request(alice.key, { method: 'GET', url })).json();
      const cases: Array<[Record<string, unknown>, Record<string, unknown>]> = [
        [{ timezone: 'America/I_Dont_Exist' }, { code: 'invalid_choice', detail: '"America/I_Dont_Exist" is not a valid choice.', attr: 'timezone' }],
        [{ timezone: 'europe/lisbon' }, { code: 'invalid_choice', attr: 'timezone' }],
        [{ session_recording_sample_rate: 'abc' }, { code: 'invalid_input', detail: 'A valid number is required.', attr: 'session_recording_sample_rate' }],
        [{ session_recording_sample_rate: 1.5 }, { code: 'max_value', detail: 'Ensure this value is less than or equal to 1.', attr: 'session_recording_sample_rate' }],
        [{ session_recording_sample_rate: -0.5 }, { code: 'min_value', attr: 'session_recording_sample_rate' }],
        [{ session_recording_sample_rate: 0.123 }, { code: 'max_decimal_places', attr: 'session_recording_sample_rate' }],
        [{ week_start_day: 2 }, { code: 'invalid_choice', detail: '"2" is not a valid choice.', attr: 'week_start_day' }],
        [{ anonymize_ips: 'maybe' }, { code: 'invalid_input', detail: 'Must be a valid boolean.', attr: 'anonymize_ips' }],
        [{ anonymize_ips: null }, { code: 'null', detail: 'This field may not be null.', attr: 'anonymize_ips' }],
        [{ name: '' }, { code: 'blank', detail: 'This field may not be blank.', attr: 'name' }],
        [{ name: '   ' }, { code: 'blank', attr: 'name' }],
        [{ name: 'x'.repeat(201) }, { code: 'max_length', detail: 'Ensure this field has no more than 200 characters.', attr: 'name' }],
        [{ name: 12 }, { code: 'invalid_input', detail: 'Not a valid string.', attr: 'name' }],
        [{ app_urls: 'https://a' }, { code: 'not_a_list', detail: 'Expected a list of items but got type "str".', attr: 'app_urls' }],
        [{ app_urls: [5] }, { code: 'invalid_input', attr: 'app_urls__0' }],
        [{ session_recording_minimum_duration_milliseconds: 30001 }, { code: 'max_value', detail: 'Ensure this value is less than or equal to 30000.' }],
        [{ session_recording_minimum_duration_milliseconds: 1.5 }, { code: 'invalid_input', detail: 'A valid integer is required.' }],
        [{ primary_dashboard: 12 }, { code: 'invalid_input', detail: 'Dashboard does not belong to this team.', attr: 'primary_dashboard' }],
      ];
      for (const [payload, expected] of cases) {
        const res = await t.request(alice.key, { method: 'PATCH', url, payload });
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json(), JSON.stringify(payload)).toMatchObject({ type: 'validation_error', ...expected });
      }
      const after = (await t.request(alice.key, { method: 'GET', url })).json();
      expect(after).toEqual(before);
    });

    it('accepts legacy zone aliases PostHog accepts', async () => {
      const res = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${alice.projectId}/`, payload: { timezone: 'US/Pacific' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().timezone).toBe('US/Pacific');
    });
  });

  describe('reset_token, demo data, delete', () => {
    it('reset_token issues a new phc_ token and logs the change', async () => {
      const project = (await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'Tokened' } })).json();
      const res = await t.request(alice.key, { method: 'PATCH', url: `${base()}/${project.id}/reset_token/`, payload: {} });
      expect(res.statusCode).toBe(200);
      const updated = res.json();
      expect(updated.api_token).toMatch(/^phc_[0-9A-Za-z]{43}$/);
      expect(updated.api_token).not.toBe(project.api_token);
      const log = (await t.request(alice.key, { method: 'GET', url: `${base()}/${project.id}/activity/` })).json();
      expect(log.results[0].detail.changes).toEqual([
        { type: 'Team', action: 'changed', field: 'api_token', before: project.api_token, after: updated.api_token },
      ]);
    });

    it('is_generating_demo_data answers false', async () => {
      const res = await t.request(alice.key, { method: 'GET', url: `${base()}/${alice.projectId}/is_generating_demo_data/` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ is_generating_demo_data: false });
    });

    it('delete answers 204 with no body and removes the project and its activity', async () => {
      const project = (await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'Doomed' } })).json();
      const res = await t.request(alice.key, { method: 'DELETE', url: `${base()}/${project.id}/` });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect((await t.request(alice.key, { method: 'GET', url: `${base()}/${project.id}/` })).statusCode).toBe(404);
      const list = (await t.request(alice.key, { method: 'GET', url: `${base()}/?limit=1000` })).json();
      expect(list.results.map((p: { id: number }) => p.id)).not.toContain(project.id);
      const remaining = await t.services.meta.db
        .selectFrom('activity_log')
        .select('id')
        .where('project_id', '=', project.id)
        .execute();
      expect(remaining).toEqual([]);
    });

    it('paginates the activity log by page', async () => {
      const project = (await t.request(alice.key, { method: 'POST', url: `${base()}/`, payload: { name: 'Busy' } })).json();
      for (let i = 0; i < 4; i++) {
        await t.request(alice.key, { method: 'PATCH', url: `${base()}/${project.id}/`, payload: { name: `Busy ${i}` } });
      }
      const first = (await t.request(alice.key, { method: 'GET', url: `${base()}/${project.id}/activity/?limit=2` })).json();
      expect(first.total_count).toBe(5);
      expect(first.results.map((e: { detail: { name: string } }) => e.detail.name)).toEqual(['Busy 3', 'Busy 2']);
      expect(first.next).toBe(`http://localhost:80${base()}/${project.id}/activity/?limit=2&page=2`);
      const last = (await t.request(alice.key, { method: 'GET', url: `${base()}/${project.id}/activity/?limit=2&page=3` })).json();
      expect(last.results.map((e: { activity: string }) => e.activity)).toEqual(['created']);
      expect(last.next).toBeNull();
    });
  });

  describe('membership levels', () => {
    it('a plain member sees their level, may edit, but may not create, delete or reset the token', async () => {
      await t.addMember(alice.organizationId, 'bob@example.com', MembershipLevel.member);
      const bobKey = await t.key('bob@example.com', ['*']);
      const item = `${base()}/${alice.projectId}/`;
      const got = await t.request(bobKey, { method: 'GET', url: item });
      expect(got.statusCode).toBe(200);
      expect(got.json().effective_membership_level).toBe(MembershipLevel.member);
      expect((await t.request(bobKey, { method: 'PATCH', url: item, payload: { name: 'Renamed by Bob' } })).statusCode).toBe(200);

      const create = await t.request(bobKey, { method: 'POST', url: `${base()}/`, payload: { name: 'Bob' } });
      expect(create.statusCode).toBe(403);
      expect(create.json()).toEqual({
        type: 'authentication_error',
        code: 'permission_denied',
        detail: 'You need to be an organization admin or above to create new projects.',
        attr: null,
      });
      const del = await t.request(bobKey, { method: 'DELETE', url: item });
      expect(del.statusCode).toBe(403);
      expect(del.json().detail).toBe("You don't have sufficient permissions in the project.");
      expect((await t.request(bobKey, { method: 'PATCH', url: `${item}reset_token/` })).statusCode).toBe(403);
      expect((await t.request(alice.key, { method: 'GET', url: item })).statusCode).toBe(200);
    });
  });
});
