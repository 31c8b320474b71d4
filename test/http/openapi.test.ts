// The OpenAPI document and Swagger UI as a newcomer meets them: request bodies with real examples
// that the server accepts as they are, and a UI under Hoglet's name.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Insight, InsightBasic } from '../../src/http/schemas/insight.js';
import { createTestApp, type Credentials, type TestApp } from '../helpers/app.js';
import { ev, journeys } from '../helpers/journeys.js';

type Examples = Record<string, { summary: string; value: Record<string, any> }>;

let t: TestApp;
let alice: Credentials;
let doc: any;

const examplesOf = (path: string, method: string): Examples => doc.paths[path][method].requestBody.content['application/json'].examples;

beforeAll(async () => {
  t = await createTestApp('sqlite');
  alice = await t.bootstrap('alice@example.com');
  // A little of the demo product two days ago, so each example answers with data.
  const at = (minutes: number) => new Date(Date.now() - 2 * 86_400_000 + minutes * 60_000).toISOString();
  const visitor = (browser: string, upgrades: boolean) => [
    ev('$pageview', at(0), { $pathname: '/pricing', $browser: browser }),
    ev('signed_up', at(5), { $browser: browser }),
    ...(upgrades ? [ev('upgraded_plan', at(30), { $browser: browser })] : []),
  ];
  await journeys(t, alice, { a: visitor('Chrome', true), b: visitor('Firefox', false), c: [ev('$pageview', at(1), { $pathname: '/' })] });
  const res = await t.app.inject({ method: 'GET', url: '/api/schema/' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});
afterAll(() => t.close());

describe('the OpenAPI document', () => {
  it('shows a TrendsQuery, a FunnelsQuery and the refresh modes as /query/ examples', () => {
    const examples = examplesOf('/api/projects/{project_id}/query/', 'post');
    const kinds = Object.values(examples).map((e) => e.value.query.kind);
    expect(kinds).toContain('TrendsQuery');
    expect(kinds).toContain('FunnelsQuery');
    expect(kinds).toContain('InsightVizNode');
    const refreshes = Object.values(examples).map((e) => e.value.refresh);
    expect(refreshes).toContain('force_blocking');
    expect(refreshes).toContain('async');
    for (const example of Object.values(examples)) expect(example.summary).toMatch(/\w/);
    // The environment path documents the same body.
    expect(examplesOf('/api/environments/{project_id}/query/', 'post')).toEqual(examples);
  });

  it('sends every /query/ example as it is and gets results', async () => {
    const examples = examplesOf('/api/projects/{project_id}/query/', 'post');
    let polled = 0;
    for (const [name, { value }] of Object.entries(examples)) {
      const url = `/api/projects/${alice.projectId}/query/`;
      let res = await t.request(alice.key, { method: 'POST', url, payload: value });
      if (res.statusCode === 202) {
        // A background mode answers 202 (unless a fresh result is cached); its id gives the result.
        expect(value.refresh, name).toBe('async');
        polled++;
        for (let i = 0; i < 100 && res.statusCode === 202; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          res = await t.request(alice.key, { method: 'GET', url: `${url}${value.client_query_id}/` });
        }
        expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
        expect(res.json().query_status.results.results[0].count, name).toBeGreaterThan(0);
        continue;
      }
      expect(res.statusCode, `${name}: ${res.body}`).toBe(200);
      const results = res.json().results as any[];
      expect(results.length, name).toBeGreaterThan(0);
      const kind = value.query.kind === 'InsightVizNode' ? value.query.source.kind : value.query.kind;
      // A trend counts something; a funnel's first step has people in it.
      if (kind === 'TrendsQuery') expect(results.some((r) => r.count > 0), name).toBe(true);
      else expect(results[0].count, name).toBeGreaterThan(0);
    }
    expect(polled).toBe(1);
  });

  it('shows a saved insight with a query as the insight create example, and the server takes it', async () => {
    const examples = examplesOf('/api/projects/{project_id}/insights/', 'post');
    expect(Object.keys(examples).length).toBeGreaterThan(0);
    for (const [name, { value }] of Object.entries(examples)) {
      expect(value.query.kind, name).toBe('InsightVizNode');
      const res = await t.request(alice.key, { method: 'POST', url: `/api/projects/${alice.projectId}/insights/`, payload: value });
      expect(res.statusCode, `${name}: ${res.body}`).toBe(201);
      expect(res.json()).toMatchObject({ name: value.name, query: value.query });
    }
  });
});

describe('the insight in the OpenAPI document', () => {
  const responseSchema = (path: string, method: string, status: string) => doc.paths[path][method].responses[status].content['application/json'].schema;
  const fields = Object.keys(Insight.properties);
  const basicFields = Object.keys(InsightBasic.properties);

  it('lists every field of the insight as the answer of create, retrieve, update and the list, on both paths', () => {
    for (const prefix of ['/api/projects', '/api/environments']) {
      const collection = `${prefix}/{project_id}/insights/`;
      const item = `${prefix}/{project_id}/insights/{id}/`;
      for (const [path, method, status] of [[collection, 'post', '201'], [item, 'get', '200'], [item, 'patch', '200'], [item, 'put', '200']]) {
        const schema = responseSchema(path!, method!, status!);
        expect(Object.keys(schema.properties), `${method} ${path}`).toEqual(fields);
        expect(schema.additionalProperties, `${method} ${path}`).toBeUndefined();
      }
      // The list: full insights, or the basic form with ?basic=true.
      const items = responseSchema(collection, 'get', '200').properties.results.items;
      expect(items.anyOf.map((form: any) => Object.keys(form.properties))).toEqual([fields, basicFields]);
      expect(Object.keys(responseSchema(`${collection}my_last_viewed/`, 'get', '200').items.properties)).toEqual(basicFields);
    }
    expect(Object.keys(responseSchema('/shared/{token}', 'get', '200').properties.insight.properties)).toEqual(fields);
  });

  it('documents the fields a client reads, and which of them a shared read leaves out', () => {
    const insight = responseSchema('/api/projects/{project_id}/insights/{id}/', 'get', '200');
    for (const field of ['id', 'short_id', 'name', 'query', 'result', 'last_refresh', 'is_cached', 'query_status', 'dashboard_tiles', 'user_access_level']) {
      expect(insight.required, field).toContain(field);
    }
    for (const field of ['created_at', 'created_by', 'last_modified_at', 'last_modified_by']) {
      expect(insight.required, field).not.toContain(field);
      expect(insight.properties[field], field).toBeDefined();
    }
    expect(insight.properties.created_by.properties).toHaveProperty('email');
    expect(insight.properties.dashboard_tiles.items.properties).toHaveProperty('dashboard_id');
    expect(insight.properties.query_status.properties).toHaveProperty('complete');
  });
});

describe('Swagger UI', () => {
  const fastifyLogo = fs.readFileSync(path.resolve('node_modules/@fastify/swagger-ui/static/logo.svg'));

  it('is titled Hoglet API, with Hoglet’s icon', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/schema/swagger-ui/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Hoglet API</title>');
    expect(page.body).toContain('theme/hoglet.svg');
    expect(page.body).not.toContain('favicon-32x32.png');
    const icon = await t.app.inject({ method: 'GET', url: '/api/schema/swagger-ui/static/theme/hoglet.svg' });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toContain('image/svg+xml');
    expect(icon.body).toContain('<title>Hoglet</title>');
    expect(doc.info.title).toBe('Hoglet API');
  });

  it('puts Hoglet’s logo in the top bar, not Fastify’s', async () => {
    const init = await t.app.inject({ method: 'GET', url: '/api/schema/swagger-ui/static/swagger-initializer.js' });
    expect(init.statusCode).toBe(200);
    const logo = /img\.src = 'data:image\/svg\+xml;base64,([^']+)'/.exec(init.body)?.[1];
    expect(logo).toBeDefined();
    const svg = Buffer.from(logo!, 'base64').toString();
    expect(svg).toContain('<title>Hoglet</title>');
    expect(init.body).not.toContain(fastifyLogo.toString('base64'));
  });
});
