// The /flags/ subject cache warms itself after a restart (issue 29): once the background warm-up
// has read a project's persons, a person's first /flags/ request runs no event-store statement; a
// person capture changes while the warm-up reads keeps the newer properties; a project whose flags
// read no person property is not read at all; the same distinct id in two projects answers apart.
import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type Credentials, type TestApp } from '../../helpers/app.js';
import { buildApp } from '../../../src/http/app.js';
import { createServices, type Services } from '../../../src/services.js';
import { TABLES } from '../../../src/storage/events/tables.js';
import { createFlag, flagsFor, personCondition, postJson } from './helpers.js';

describe('/flags/ subject cache warm-up after a restart', () => {
  let t: TestApp;
  let owner: Credentials;
  let other: Credentials;
  let plain: Credentials;
  /** The restarted app (the first one's data directory and event-store database). */
  let app: FastifyInstance;
  let services: Services;
  let statements: { sql: string; team: unknown }[] = [];
  const isWarmUp = (sql: string) => sql.includes('groupArrayIf(m.distinct_id');
  const subjectReads = () => statements.filter(({ sql }) => sql.includes(TABLES.personDistinctIds)).length;

  const capture = async (who: Credentials, events: { distinct_id: string; plan: string }[]) => {
    const batch = events.map((e) => ({ event: '$identify', distinct_id: e.distinct_id, properties: { $set: { plan: e.plan } }, timestamp: new Date().toISOString() }));
    const res = await postJson(t, '/batch/', { api_key: who.projectApiToken, batch });
    expect(res.statusCode, res.body).toBe(200);
  };
  const pro = async (who: Credentials, distinctId: string) => (await flagsFor(t, who, distinctId))['pro-plan']?.enabled as boolean;
  const planOf = (n: number) => (n % 2 === 0 ? 'pro' : 'free');

  beforeAll(async () => {
    t = await createTestApp('sqlite');
    owner = await t.bootstrap('warm-owner@example.com');
    other = await t.bootstrap('warm-other@example.com');
    plain = await t.bootstrap('warm-plain@example.com');
    await capture(owner, Array.from({ length: 50 }, (_, n) => ({ distinct_id: `user-${n}`, plan: planOf(n) })));
    // The same distinct id in another project, with the opposite plan.
    await capture(other, [{ distinct_id: 'user-0', plan: 'free' }]);
    await capture(plain, [{ distinct_id: 'user-0', plan: 'pro' }]);
    for (const who of [owner, other]) await createFlag(t, who, { key: 'pro-plan', filters: { groups: [personCondition('plan', 'pro')] } });
    // A rollout reads no person property: nothing to warm.
    await createFlag(t, plain, { key: 'half', filters: { groups: [{ properties: [], rollout_percentage: 50 }] } });
    await flagsFor(t, owner, 'settle');

    // Restart on the same data: the new process has neither read nor written these persons.
    await t.app.close();
    await t.services.close();
    services = await createServices(t.services.config);
    // Before the warm-up's first statement (it starts on a later turn of the loop).
    const query = services.events.query.bind(services.events);
    let changedDuringWarmUp = false;
    let restarted!: () => void;
    const appReady = new Promise<void>((resolve) => (restarted = resolve));
    vi.spyOn(services.events, 'query').mockImplementation(async (sql, params, ...rest) => {
      statements.push({ sql, team: params?.team });
      const rows = await query(sql, params, ...rest);
      if (isWarmUp(sql) && params?.team === owner.projectId && !changedDuringWarmUp) {
        // Capture changes user-1 after the chunk was read, before it is cached: capture's is newer.
        changedDuringWarmUp = true;
        await appReady;
        await capture(owner, [{ distinct_id: 'user-1', plan: 'pro' }]);
        // A request waits until capture stored (and remembered) what it acknowledged.
        await flagsFor(t, owner, 'settle');
      }
      return rows;
    });
    app = await buildApp(services);
    await app.ready();
    // Requests go to the restarted app from here on.
    const request: TestApp['request'] = (key, options) =>
      app.inject({ ...options, headers: { ...(options.headers ?? {}), ...(key === null ? {} : { authorization: `Bearer ${key}` }) } });
    t = { ...t, app, services, request };
    restarted();
    await services.flagSources.subjects.warmUp.idle();
    expect(changedDuringWarmUp).toBe(true);
  });
  afterAll(async () => {
    await app.close();
    await services.events.command(`DROP DATABASE IF EXISTS ${services.events.layout.database}`);
    await services.close();
    fs.rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('reads each project whose flags need persons once, and nothing of a project whose flags do not', () => {
    const warmUps = statements.filter(({ sql }) => isWarmUp(sql)).map(({ team }) => team);
    expect(warmUps.sort()).toEqual([owner.projectId, other.projectId].sort());
    const status = services.flagSources.subjects.warmUp.status();
    expect(status).toMatchObject({ warming: false, persons: 51 });
  });

  it("answers every person's first request after the restart with no event-store statement", async () => {
    statements = [];
    const answers = await Promise.all(Array.from({ length: 50 }, (_, n) => pro(owner, `user-${n}`)));
    // user-1 is pro now: the change capture made during the warm-up.
    expect(answers).toEqual(Array.from({ length: 50 }, (_, n) => n === 1 || planOf(n) === 'pro'));
    expect(subjectReads()).toBe(0);
  });

  it('keeps the projects apart: the same distinct id answers with its own project\'s person', async () => {
    statements = [];
    expect(await pro(owner, 'user-0')).toBe(true);
    expect(await pro(other, 'user-0')).toBe(false);
    expect(subjectReads()).toBe(0);
    // The project without person flags was not warmed: its person is read on first use.
    expect((await flagsFor(t, plain, 'user-0')).half).toBeDefined();
    expect(statements.filter(({ sql }) => isWarmUp(sql))).toEqual([]);
  });

  it('warms a project once its flags come to read person properties, on its next /flags/ request', async () => {
    await createFlag(t, plain, { key: 'pro-plan', filters: { groups: [personCondition('plan', 'pro')] } });
    statements = [];
    expect(await pro(plain, 'user-0')).toBe(true);
    await services.flagSources.subjects.warmUp.idle();
    expect(statements.filter(({ sql }) => isWarmUp(sql)).map(({ team }) => team)).toEqual([plain.projectId]);
  });

  it('says on /_health whether it is warming, how many persons it read and the longest loop delay', async () => {
    const res = await app.inject({ method: 'GET', url: '/_health' });
    expect(res.statusCode).toBe(200);
    expect(res.json().flag_subjects).toMatchObject({ warming: false, persons: 52 });
    expect(res.json().flag_subjects.longest_loop_delay_ms).toBeGreaterThanOrEqual(0);
  });
});
