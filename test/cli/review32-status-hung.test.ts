// `hoglet status` and `hoglet backup` beside a server that stopped answering (issue 32's review):
// an operator (or cron) runs them exactly when something may be wrong, so neither may wait forever
// on the server. The server here is a real one, frozen with SIGSTOP (a hung process keeps its
// lock and its address); the command must finish within seconds and say what it could not read.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, hoglet, startServer, type ServerProcess } from '../helpers/processes.js';

delete process.env.DATABASE_URL;
delete process.env.CLICKHOUSE_URL;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-review32-hung-'));
let server: ServerProcess | null = null;
afterAll(async () => {
  if (server) {
    server.child.kill('SIGCONT');
    server.child.kill('SIGKILL');
    await server.exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('hoglet status beside a hung server', () => {
  it('gives up on the server within seconds and says so', async () => {
    const boot = await hoglet(['bootstrap', '--email', 'hung@example.com', '--json', '--data-dir', dataDir]);
    expect(boot.code, boot.stderr).toBe(0);
    server = await startServer(dataDir, await freePort());
    server.child.kill('SIGSTOP');
    const started = Date.now();
    const status = await hoglet(['status', '--json', '--data-dir', dataDir]);
    const took = Date.now() - started;
    expect(status.code, status.stderr).toBe(0);
    expect(took).toBeLessThan(45_000);
    const report = JSON.parse(status.stdout);
    expect(JSON.stringify(report.unread)).toContain('did not answer');
  }, 150_000);

  it('hoglet backup beside it stops within seconds, keeping no file and no staging directory', async () => {
    expect(server).not.toBeNull();
    const archive = path.join(os.tmpdir(), `hoglet-review32-hung-${process.pid}.tar`);
    const started = Date.now();
    const backup = await hoglet(['backup', '--data-dir', dataDir, '--output', archive]);
    expect(Date.now() - started).toBeLessThan(45_000);
    expect(backup.code, backup.stderr).toBe(1);
    expect(backup.stderr).toContain('did not answer');
    expect(fs.existsSync(archive)).toBe(false);
    expect(fs.readdirSync(dataDir).filter((name) => name.startsWith('.backup-'))).toEqual([]);
  }, 150_000);
});
