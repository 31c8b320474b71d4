// HogQLAutocomplete and HogQLMetadata beyond PostHog's own cases: every field the completions list
// is one the translator resolves; neither kind ever shows another organization's property names or
// cohorts; the input and the answer are bounded; the shape the SQL editor reads.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AUTOCOMPLETE_TABLES } from '../../../src/query/autocomplete/schema.js';
import { MAX_SUGGESTIONS } from '../../../src/query/autocomplete/autocomplete.js';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { ev, journeys } from '../../helpers/journeys.js';

let t: TestApp;
let alice: Credentials;
let bob: Credentials;
let bobCohortId: number;

const AT = '2024-01-01T10:00:00Z';

beforeAll(async () => {
  t = await createTestApp(process.env.HOGLET_TEST_DATABASE_URL ? 'postgres' : 'sqlite');
  // Two organizations (bootstrap gives each user their own), each with its own property names.
  alice = await t.bootstrap('alice-autocomplete@example.com');
  bob = await t.bootstrap('bob-autocomplete@example.com');
  await journeys(t, alice, { a1: [ev('$pageview', AT, { alice_prop: 1 }), ev('$identify', AT, { $set: { alice_person_prop: 'x' } })] });
  await journeys(t, bob, { b1: [ev('$pageview', AT, { bob_secret_prop: 1 }), ev('$identify', AT, { $set: { bob_secret_person: 'x' } })] });
  const cohort = await t.request(bob.key, { method: 'POST', url: `/api/projects/${bob.projectId}/cohorts/`, payload: { name: 'bob_secret_cohort', groups: [{ properties: [{ key: 'x', value: 'y', type: 'person' }] }] } });
  expect(cohort.statusCode, cohort.body).toBe(201);
  bobCohortId = cohort.json().id;
});

afterAll(async () => {
  await t.close();
});

const post = (as: Credentials, query: Record<string, unknown>, path = 'projects') =>
  t.request(as.key, { method: 'POST', url: `/api/${path}/${as.projectId}/query/`, payload: { query } });

async function complete(as: Credentials, query: string, at = query.length, extra: Record<string, unknown> = {}) {
  const res = await post(as, { kind: 'HogQLAutocomplete', language: 'hogQL', query, startPosition: at, endPosition: at, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { suggestions: { label: string; insertText: string; kind: string; detail: string | null; documentation: string | null }[]; incomplete_list: boolean; timings: unknown[] };
}

async function metadata(as: Credentials, query: string) {
  const res = await post(as, { kind: 'HogQLMetadata', language: 'hogQL', query });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('the fields completions list', () => {
  // Every column of every table, and every column of the tables its fields lead to, checked by
  // HogQLMetadata (the translator, nothing run): a suggestion is never a field Hoglet refuses.
  const chains: [string, string][] = [];
  for (const [name, table] of AUTOCOMPLETE_TABLES) {
    for (const [field, spec] of Object.entries(table.fields)) {
      if (spec.kind === 'column') chains.push([name, field]);
      else for (const [inner, innerSpec] of Object.entries(spec.table().fields)) if (innerSpec.kind === 'column') chains.push([name, `${field}.${inner}`]);
    }
  }

  it('each resolves in its table', async () => {
    const refused: string[] = [];
    for (const [table, chain] of chains) {
      const answer = await metadata(alice, `select ${chain} from ${table}`);
      if (!answer.isValid) refused.push(`${table}: ${chain}: ${answer.errors[0]?.message}`);
    }
    expect(refused).toEqual([]);
    expect(chains.length).toBeGreaterThan(80);
  });

  it('lists the tables a FROM may name, as folders', async () => {
    const answer = await complete(alice, 'select * from ');
    expect(answer.suggestions.map((s) => s.label)).toEqual([...AUTOCOMPLETE_TABLES.keys()]);
    expect(answer.suggestions[0]).toEqual({ label: 'events', insertText: 'events', kind: 'Folder', detail: 'Table', documentation: null });
  });

  it('types fields as PostHog prints them, quotes names with $, and gives the project property types', async () => {
    const answer = await complete(alice, 'select  from events', 7);
    const byLabel = new Map(answer.suggestions.map((s) => [s.label, s]));
    expect(byLabel.get('event')).toMatchObject({ kind: 'Variable', detail: 'String', insertText: 'event' });
    expect(byLabel.get('timestamp')).toMatchObject({ detail: 'DateTime' });
    expect(byLabel.get('$session_id')).toMatchObject({ insertText: '`$session_id`' });
    expect(byLabel.get('person')).toMatchObject({ detail: 'Table' });
    expect(byLabel.get('count')).toMatchObject({ kind: 'Function', insertText: 'count()' });
    const properties = await complete(alice, 'select properties.alice from events', 23, { startPosition: 18 });
    expect(properties.suggestions).toEqual([{ label: 'alice_prop', insertText: 'alice_prop', kind: 'Variable', detail: 'Numeric', documentation: null }]);
  });

  it('completes session fields and group properties through the lazy joins', async () => {
    expect((await complete(alice, 'select session. from events', 15)).suggestions.map((s) => s.label)).toContain('$session_duration');
    expect((await complete(alice, 'select group_0. from events', 15)).suggestions.map((s) => s.label)).toEqual(['index', 'key', 'created_at', 'properties']);
  });
});

describe('the team guard', () => {
  it("never suggests another organization's property names", async () => {
    const texts = [
      ['select properties. from events', 18], ['select properties. from persons', 18], ['select person.properties. from events', 25],
      ['select pdi.person.properties. from events', 29], ['select properties.bob from events', 33],
    ] as const;
    for (const [query, at] of texts) {
      const answer = await complete(alice, query, at);
      expect(JSON.stringify(answer)).not.toContain('bob_secret');
    }
    expect((await complete(alice, 'select properties. from events', 18)).suggestions.map((s) => s.label)).toContain('alice_prop');
    expect((await complete(alice, 'select person.properties. from events', 25)).suggestions.map((s) => s.label)).toEqual(['alice_person_prop']);
    // Bob sees his own, on the environments path too.
    const res = await post(bob, { kind: 'HogQLAutocomplete', language: 'hogQL', query: 'select properties. from events', startPosition: 18, endPosition: 18 }, 'environments');
    expect(res.json().suggestions.map((s: { label: string }) => s.label)).toContain('bob_secret_prop');
  });

  it("never names another organization's cohort in metadata", async () => {
    // By id: not found, and its name is nowhere. By name: not found, and its id is no fix.
    const byId = await metadata(alice, `select 1 from events where person_id in cohort ${bobCohortId}`);
    expect(byId).toMatchObject({ isValid: false, errors: [{ message: `Could not find cohort with ID ${bobCohortId}` }], notices: [] });
    expect(JSON.stringify(byId)).not.toContain('bob_secret_cohort');
    const byName = await metadata(alice, "select 1 from events where person_id in cohort 'bob_secret_cohort'");
    expect(byName).toMatchObject({ isValid: false, errors: [{ message: "Could not find a cohort with the name 'bob_secret_cohort'", fix: null }], notices: [] });
  });

  it("cannot ask in another organization's project", async () => {
    const res = await t.request(alice.key, { method: 'POST', url: `/api/projects/${bob.projectId}/query/`, payload: { query: { kind: 'HogQLAutocomplete', language: 'hogQL', query: 'select properties. from events', startPosition: 18, endPosition: 18 } } });
    expect([403, 404]).toContain(res.statusCode);
    expect(res.body).not.toContain('bob_secret');
  });
});

describe('HogQLMetadata in the editor', () => {
  it('says where an unknown function, table or field is', async () => {
    const fn = await metadata(alice, 'select event, nosuchfn(1) from events');
    expect(fn.isValid).toBe(false);
    expect(fn.errors).toHaveLength(1);
    expect(fn.errors[0]).toMatchObject({ start: 14, end: 22 });
    expect(fn.errors[0].message).toContain('nosuchfn');
    expect((await metadata(alice, 'select 1 from eventz')).errors).toEqual([{ message: 'Unknown table `eventz`.', start: 14, end: 20, fix: null }]);
    expect((await metadata(alice, 'select event from events where nosuch = 1')).errors).toEqual([{ message: 'Unable to resolve field: nosuch', start: 31, end: 37, fix: null }]);
  });

  it('answers Hog languages Hoglet does not compile as invalid', async () => {
    for (const language of ['hogJson', 'liquid']) {
      const res = await post(alice, { kind: 'HogQLMetadata', language, query: '{ "a": 1 }' });
      expect(res.json()).toMatchObject({ isValid: false, errors: [{ message: `Unsupported language: ${language}`, start: null, end: null, fix: null }] });
    }
  });
});

describe('what the editor kinds read', () => {
  it('metadata and field completions never read the event store; property completions read it once a minute', async () => {
    const reads = vi.spyOn(t.services.events, 'query');
    try {
      const steps = [
        () => metadata(alice, 'select event, person.properties.x, count() from events where timestamp > now() - interval 1 day group by event'),
        () => post(alice, { kind: 'HogQLMetadata', language: 'hogQLExpr', query: 'properties.$browser' }),
        () => complete(alice, 'select  from events e join persons p on e.person_id = p.id', 7),
        () => complete(alice, 'select person. from events', 14),
      ];
      // Capture finishes its person and group writes in the background: measured once the store is quiet.
      for (let tries = 0; tries < 20; tries += 1) {
        reads.mockClear();
        await new Promise((resolve) => setTimeout(resolve, 250));
        if (reads.mock.calls.length === 0) break;
      }
      for (const step of steps) await step();
      expect(reads).not.toHaveBeenCalled();
      const first = await complete(alice, 'select properties.ali from events', 21, { startPosition: 18 });
      const called = reads.mock.calls.length;
      expect(called).toBeGreaterThan(0);
      expect(await complete(alice, 'select properties.ali from events', 21, { startPosition: 18 })).toMatchObject({ suggestions: first.suggestions });
      expect(reads.mock.calls.length).toBe(called);
    } finally {
      reads.mockRestore();
    }
  });
});

describe('bounds', () => {
  it('refuses a text past HogQLQuery\'s limit with a 400, and positions outside the text', async () => {
    const long = `select ${'1 + '.repeat(13_000)}1`;
    const tooLong = await post(alice, { kind: 'HogQLAutocomplete', language: 'hogQL', query: long, startPosition: 7, endPosition: 7 });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ type: 'validation_error', attr: 'query.query' });
    const tooLongMetadata = await post(alice, { kind: 'HogQLMetadata', language: 'hogQL', query: long });
    expect(tooLongMetadata.statusCode).toBe(400);
    const outside = await post(alice, { kind: 'HogQLAutocomplete', language: 'hogQL', query: 'select 1', startPosition: 3, endPosition: 99 });
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({ attr: 'query.endPosition' });
    const backwards = await post(alice, { kind: 'HogQLAutocomplete', language: 'hogQL', query: 'select 1', startPosition: 5, endPosition: 2 });
    expect(backwards.statusCode).toBe(400);
    const noLanguage = await post(alice, { kind: 'HogQLAutocomplete', query: 'select 1', startPosition: 0, endPosition: 0 });
    expect(noLanguage.json()).toMatchObject({ attr: 'query.language' });
  });

  it('looks up no property for a selection longer than 200 characters', async () => {
    const word = 'a'.repeat(201);
    const query = `select properties.${word} from events`;
    const reads = vi.spyOn(t.services.definitions, 'listProperties');
    try {
      expect((await complete(alice, query, 18 + word.length, { startPosition: 18 })).suggestions).toEqual([]);
      expect(reads).not.toHaveBeenCalled();
    } finally {
      reads.mockRestore();
    }
  });

  it('answers at most MAX_SUGGESTIONS suggestions, with the answer shape PostHog gives', async () => {
    const answer = await complete(alice, 'select  from events', 7);
    expect(answer.suggestions.length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
    expect(Object.keys(answer).sort()).toEqual(['incomplete_list', 'suggestions', 'timings']);
    expect(answer.incomplete_list).toBe(false);
  });

  it('suggests nothing for Hog programs and templates (Hoglet has no Hog compiler)', async () => {
    const res = await post(alice, { kind: 'HogQLAutocomplete', language: 'hog', query: 'let a := 1; print(a)', startPosition: 18, endPosition: 18 });
    expect(res.json()).toMatchObject({ suggestions: [], incomplete_list: false });
  });

  it('completes an expression over its source query and gives the globals', async () => {
    const res = await post(alice, {
      kind: 'HogQLAutocomplete', language: 'hogQLExpr', query: 'pr', startPosition: 0, endPosition: 2,
      sourceQuery: { kind: 'HogQLQuery', query: 'select * from persons' }, globals: { project: { name: 'x' } },
    });
    const labels = res.json().suggestions.map((s: { label: string }) => s.label);
    expect(labels).toContain('is_identified');
    expect(labels).toContain('project');
  });
});
