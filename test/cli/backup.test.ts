// `hoglet backup` while a real server captures, `hoglet restore` into a new directory, a server
// started there: it answers as the original did at the backup's instant. Events are sent one
// /batch/ request at a time during the backup, each request numbered, so the instant is a point in
// that order: the restored store must hold a complete prefix of the requests (none torn, none
// skipped), at least every one acknowledged before the backup began.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { freePort, hoglet, startServer, type ServerProcess } from '../helpers/processes.js';
import { fillDisk, mountSmallDisk } from '../helpers/small-disk.js';
import { freshPostgresSchema } from '../helpers/stores.js';

const postgresUrl = process.env.HOGLET_TEST_DATABASE_URL?.trim() || null;
const hasPgDump = (() => {
  try {
    execFileSync('pg_dump', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

// The embedded stores of the data directory, whatever the run's environment says (the servers and
// commands below inherit it).
delete process.env.DATABASE_URL;
delete process.env.CLICKHOUSE_URL;
const DAY = '2024-05-01';
const PER_REQUEST = 10;

let root: string;
let original: string;
let creds: { projectId: number; token: string; key: string };

async function api(port: number, url: string, body?: unknown): Promise<any> {
  const response = await fetch(`http://127.0.0.1:${port}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${creds.key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url}: ${response.status} ${text}`);
  return JSON.parse(text);
}

async function capture(port: number, batch: object[]): Promise<void> {
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${port}/batch/`, { method: 'POST', body: JSON.stringify({ api_key: creds.token, batch }) });
    if (response.ok) return;
    if (response.status !== 503) throw new Error(`capture: ${response.status} ${await response.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const hogql = (port: number, query: string) => api(port, `/api/projects/${creds.projectId}/query/`, { query: { kind: 'HogQLQuery', query } }).then((r) => r.results);

/** Daily totals of both events; `upTo` keeps only the requests numbered up to it (the original's view at the instant). */
const trend = (port: number, upTo: number | null) =>
  api(port, `/api/projects/${creds.projectId}/query/`, {
    query: {
      kind: 'TrendsQuery',
      dateRange: { date_from: `${DAY}T00:00:00Z`, date_to: `${DAY}T23:59:59Z` },
      series: [
        { kind: 'EventsNode', event: 'signed up', math: 'total' },
        {
          kind: 'EventsNode',
          event: 'during',
          math: 'dau',
          ...(upTo === null ? {} : { properties: [{ key: 'request', value: upTo, operator: 'lte', type: 'event' }] }),
        },
      ],
      breakdownFilter: { breakdown: 'plan', breakdown_type: 'person' },
    },
  }).then((r) => r.results.map((s: any) => ({ label: s.label, breakdown: s.breakdown_value, data: s.data, count: s.count })));

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-backup-'));
  original = path.join(root, 'original');
  const boot = await hoglet(['bootstrap', '--email', 'b@example.com', '--json', '--data-dir', original]);
  expect(boot.code, boot.stderr).toBe(0);
  const out = JSON.parse(boot.stdout);
  creds = { projectId: out.project_id, token: out.project_api_token, key: out.personal_api_key };
}, 180_000); // the first `hoglet` of a run may build dist/ first
afterAll(() => {
  disk.release();
  fs.rmSync(root, { recursive: true, force: true });
});

const disk = mountSmallDisk('test/cli/backup.test.ts', 1, { eventsOnDisk: false });

describe('hoglet backup and restore', () => {
  it('copies a capturing server consistently; the restored server answers as the original did at the instant', async () => {
    const port = await freePort();
    let server: ServerProcess | null = await startServer(original, port, []);
    let restored: ServerProcess | null = null;
    try {
      // Before the backup: persons with properties, a cohort of them.
      await capture(port, Array.from({ length: 30 }, (_, i) => ({
        event: 'signed up', distinct_id: `p${i}`, timestamp: `${DAY}T10:00:${String(i).padStart(2, '0')}Z`,
        properties: { $set: { plan: i % 3 === 0 ? 'pro' : 'free' } },
      })));
      const cohort = await api(port, `/api/projects/${creds.projectId}/cohorts/`, {
        name: 'Pro', filters: { properties: { type: 'OR', values: [{ type: 'AND', values: [{ key: 'plan', value: 'pro', type: 'person', operator: 'exact' }] }] } },
      });

      // During: numbered requests, one after another, until the backup is written.
      let sent = 0;
      let backupDone = false;
      const load = (async () => {
        while (!backupDone && sent < 2_000) {
          await capture(port, Array.from({ length: PER_REQUEST }, (_, i) => ({
            event: 'during', distinct_id: `d${sent}`, timestamp: `${DAY}T12:00:00Z`,
            properties: { request: sent, $set: { plan: 'load' }, i },
          })));
          sent++;
        }
      })();
      while (sent < 5) await new Promise((resolve) => setTimeout(resolve, 10));
      const acknowledgedBefore = sent;
      const archive = path.join(root, 'backup.tar');
      const backup = await hoglet(['backup', '--data-dir', original, '--output', archive]);
      backupDone = true;
      await load;
      expect(backup.code, backup.stderr).toBe(0);
      expect(backup.stdout).toMatch(/backup of \S+ written to .*backup\.tar: [\d.]+ MB \(through the server \(pid \d+\)/);
      expect(backup.stderr).toContain('freezing the stores through the server');
      expect(fs.readdirSync(original).filter((name) => name.startsWith('.backup-'))).toEqual([]);

      // A target that exists: refused, left alone.
      const again = await hoglet(['backup', '--data-dir', original, '--output', archive]);
      expect(again.code).toBe(1);
      expect(again.stderr).toContain('exists; a backup never overwrites a file');

      const copy = path.join(root, 'restored');
      const restore = await hoglet(['restore', '--input', archive, '--data-dir', copy]);
      expect(restore.code, restore.stderr).toBe(0);
      expect(restore.stdout).toContain(`restored`);
      const notEmpty = await hoglet(['restore', '--input', archive, '--data-dir', copy]);
      expect(notEmpty.code).toBe(1);
      expect(notEmpty.stderr).toContain('is not empty');

      const copyPort = await freePort();
      restored = await startServer(copy, copyPort, []);
      // The requests in the copy: a complete prefix 0..last, with everything acknowledged before the backup began.
      const [[requests, last, events]] = await hogql(copyPort, "SELECT count(DISTINCT properties.request), max(toInt(properties.request)), count() FROM events WHERE event = 'during'");
      expect(requests).toBe(last + 1);
      expect(events).toBe(requests * PER_REQUEST);
      expect(requests).toBeGreaterThanOrEqual(acknowledgedBefore);
      expect(requests).toBeLessThanOrEqual(sent);

      // Every answer equals the original's, restricted to what it held at the instant.
      expect(await trend(copyPort, null)).toEqual(await trend(port, last));
      const count = `SELECT event, count(), count(DISTINCT person_id) FROM events WHERE ifNull(properties.request, 0) <= ${last} GROUP BY event ORDER BY event`;
      expect(await hogql(copyPort, count)).toEqual(await hogql(port, count));
      const persons = `SELECT pdi.distinct_id, p.properties.plan FROM persons p JOIN person_distinct_ids pdi ON pdi.person_id = p.id
        WHERE NOT startsWith(pdi.distinct_id, 'd') OR toInt(substring(pdi.distinct_id, 2, 10)) <= ${last} ORDER BY pdi.distinct_id LIMIT 10000`;
      const originalPersons = await hogql(port, persons);
      expect(originalPersons).toHaveLength(30 + requests);
      expect(await hogql(copyPort, persons)).toEqual(originalPersons);
      expect((await hogql(copyPort, 'SELECT count() FROM persons'))[0][0]).toBe(30 + requests);
      const restoredCohort = await api(copyPort, `/api/projects/${creds.projectId}/cohorts/${cohort.id}/`);
      expect({ name: restoredCohort.name, filters: restoredCohort.filters }).toEqual({ name: cohort.name, filters: cohort.filters });
    } finally {
      for (const s of [server, restored]) {
        s?.child.kill('SIGTERM');
        await s?.exited;
      }
      server = null;
    }
  }, 180_000);

  it('refuses a backup of a directory with no Hoglet data, and an archive that is not a backup', async () => {
    const empty = fs.mkdtempSync(path.join(root, 'empty-'));
    const none = await hoglet(['backup', '--data-dir', empty, '--output', path.join(root, 'none.tar')]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('holds no Hoglet data');
    const junk = path.join(root, 'junk.tar');
    fs.writeFileSync(junk, 'not a tar'.repeat(100));
    const restore = await hoglet(['restore', '--input', junk, '--data-dir', path.join(root, 'from-junk')]);
    expect(restore.code).toBe(1);
    expect(restore.stderr).toContain('is not a Hoglet backup');
    expect(fs.existsSync(path.join(root, 'from-junk'))).toBe(false);
  });
});

describe.skipIf(disk.skipReason !== null)('a full disk', () => {
  it('backup (in-process, no server running) and restore stop with a clear message and leave nothing behind', async () => {
    fillDisk(path.join(disk.mountPoint, 'filler'), 64 * 1024);
    const archive = path.join(disk.mountPoint, 'backup.tar');
    const backup = await hoglet(['backup', '--data-dir', original, '--output', archive]);
    expect(backup.code, backup.stderr).toBe(1);
    expect(backup.stderr).toContain('freezing the stores through in-process');
    expect(backup.stderr).toContain(`hoglet: the disk holding ${archive} is full; nothing was kept`);
    expect(fs.existsSync(archive)).toBe(false);
    expect(fs.readdirSync(original).filter((name) => name.startsWith('.backup-'))).toEqual([]);

    const target = path.join(disk.mountPoint, 'restored');
    const restore = await hoglet(['restore', '--input', path.join(root, 'backup.tar'), '--data-dir', target]);
    expect(restore.code, restore.stderr).toBe(1);
    expect(restore.stderr).toContain(`hoglet: the disk holding ${target} is full`);
    expect(fs.existsSync(target)).toBe(false);
  }, 120_000);
});

// With PostgreSQL the metadata is backed up by pg_dump (docs/operating.md, "Backups"): the
// documented commands round-trip a Hoglet schema, and Hoglet opens the restored one as it was.
describe.skipIf(!postgresUrl || !hasPgDump)('PostgreSQL metadata: pg_dump and pg_restore', () => {
  it('hoglet backup points to pg_dump; a dump restored after the schema is lost opens with every key and project', async () => {
    const schema = await freshPostgresSchema();
    const name = new URL(schema.url).searchParams.get('options')!.replace('-c search_path=', '');
    const dataDir = fs.mkdtempSync(path.join(root, 'pg-'));
    const env = { DATABASE_URL: schema.url };
    try {
      const boot = await hoglet(['bootstrap', '--email', 'pg@example.com', '--project', 'Kept', '--json', '--data-dir', dataDir], env);
      expect(boot.code, boot.stderr).toBe(0);
      const { personal_api_key: key } = JSON.parse(boot.stdout);

      const refused = await hoglet(['backup', '--data-dir', dataDir, '--output', path.join(dataDir, 'x.tar')], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('the metadata store is PostgreSQL: back it up with pg_dump');

      // The commands operating.md gives, on this schema alone.
      const dump = path.join(dataDir, 'meta.dump');
      execFileSync('pg_dump', ['--format=custom', `--schema=${name}`, `--file=${dump}`, postgresUrl!]);
      const before = await hoglet(['keys', 'list', '--email', 'pg@example.com', '--json', '--data-dir', dataDir], env);
      await schema.drop();
      execFileSync('pg_restore', ['--no-owner', `--dbname=${postgresUrl}`, dump]);

      const migrate = await hoglet(['migrate', '--data-dir', dataDir], env);
      expect(migrate.code, migrate.stderr).toBe(0);
      const after = await hoglet(['keys', 'list', '--email', 'pg@example.com', '--json', '--data-dir', dataDir], env);
      expect(after.code, after.stderr).toBe(0);
      expect(JSON.parse(after.stdout)).toEqual(JSON.parse(before.stdout));
      expect(JSON.parse(after.stdout)).toHaveLength(1);
      // The key still signs in: the restored rows are the ones Hoglet wrote.
      expect(key).toMatch(/^phx_/);
    } finally {
      await schema.drop().catch(() => {});
    }
  }, 120_000);
});
