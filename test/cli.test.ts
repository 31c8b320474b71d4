// The `hoglet` command as a user runs it: the compiled bin in a child process.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freePort, hoglet } from './helpers/processes.js';

async function waitForHealth(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('server exited early');
    const ok = await fetch(`http://127.0.0.1:${port}/_health`).then((r) => r.ok, () => false);
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('server did not become healthy');
}

describe('hoglet command', () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-cli-'));
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('bootstrap --json prints exactly one JSON object with the credentials', async () => {
    const { code, stdout } = await hoglet(['bootstrap', '--email', 'one@example.com', '--organization', 'One', '--json', '--data-dir', dataDir]);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!);
    expect(Object.keys(out).sort()).toEqual(['organization_id', 'personal_api_key', 'project_api_token', 'project_id', 'user_id']);
    expect(out.personal_api_key).toMatch(/^phx_[0-9A-Za-z]{43}$/);
    expect(out.project_api_token).toMatch(/^phc_[0-9A-Za-z]{43}$/);

    const again = JSON.parse((await hoglet(['bootstrap', '--email', 'one@example.com', '--organization', 'One', '--json', '--data-dir', dataDir])).stdout);
    expect(again.organization_id).toBe(out.organization_id);
    expect(again.project_id).toBe(out.project_id);
    expect(again.personal_api_key).not.toBe(out.personal_api_key);

    const other = JSON.parse((await hoglet(['bootstrap', '--email', 'two@example.com', '--organization', 'Two', '--json', '--data-dir', dataDir])).stdout);
    expect(other.organization_id).not.toBe(out.organization_id);
    expect(other.project_id).not.toBe(out.project_id);
    expect(other.user_id).not.toBe(out.user_id);
  });

  it('bootstrap without --json says what to do next, with the URL the server will listen on', async () => {
    const { code, stdout } = await hoglet(['bootstrap', '--email', 'next@example.com', '--data-dir', dataDir], { PORT: '9123' });
    expect(code).toBe(0);
    const token = /project_api_token: (phc_\w+)/.exec(stdout)![1]!;
    const project = /project_id: +(\d+)/.exec(stdout)![1]!;
    expect(stdout).toContain('Next:');
    expect(stdout).toContain(`any PostHog SDK with the token ${token} and host http://127.0.0.1:9123`);
    expect(stdout).toContain(`npx hoglet demo --project ${project}`);
  });

  it('stores keys only as hashes: no plain key in the database files', async () => {
    const { stdout } = await hoglet(['keys', 'create', '--email', 'one@example.com', '--scopes', 'project:read', '--json', '--data-dir', dataDir]);
    const { personal_api_key: key } = JSON.parse(stdout);
    const files = fs.readdirSync(dataDir).filter((f) => f.startsWith('hoglet.sqlite3'));
    const contents = Buffer.concat(files.map((f) => fs.readFileSync(path.join(dataDir, f))));
    expect(contents.includes(key)).toBe(false);
    const { createHash } = await import('node:crypto');
    expect(contents.includes(createHash('sha256').update(key).digest('hex'))).toBe(true);
  });

  it('keys create, list and revoke', async () => {
    const created = await hoglet(['keys', 'create', '--email', 'one@example.com', '--scopes', 'insight:read,project:write', '--label', 'ci', '--json', '--data-dir', dataDir]);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ label: 'ci', scopes: ['insight:read', 'project:write'] });
    const listed = await hoglet(['keys', 'list', '--email', 'one@example.com', '--json', '--data-dir', dataDir]);
    const keys = JSON.parse(listed.stdout) as Array<{ id: string; mask_value: string }>;
    expect(keys.map((k) => k.id)).toContain(key.id);
    expect(listed.stdout).not.toContain(key.personal_api_key);
    expect((await hoglet(['keys', 'revoke', key.id, '--data-dir', dataDir])).code).toBe(0);
    const after = JSON.parse((await hoglet(['keys', 'list', '--email', 'one@example.com', '--json', '--data-dir', dataDir])).stdout);
    expect(after.map((k: { id: string }) => k.id)).not.toContain(key.id);
    const again = await hoglet(['keys', 'revoke', key.id, '--data-dir', dataDir]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no key with id');
  });

  it('users set-password (from standard input or --password) and bootstrap --password set what the web app signs in with', async () => {
    const withStdin = (args: string[], input: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk) => (stdout += chunk));
        child.stderr.on('data', (chunk) => (stderr += chunk));
        child.on('close', (code) => resolve({ code, stdout, stderr }));
        child.stdin.end(input);
      });
    const set = await withStdin(['users', 'set-password', '--email', 'one@example.com', '--data-dir', dataDir], 'piped passphrase 1\n');
    expect(set.code, set.stderr).toBe(0);
    expect(set.stdout).toContain('password set for one@example.com');
    const short = await withStdin(['users', 'set-password', '--email', 'one@example.com', '--data-dir', dataDir], 'short\n');
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('too short');
    const boot = await hoglet(['bootstrap', '--email', 'three@example.com', '--password', 'flagged passphrase', '--data-dir', dataDir]);
    expect(boot.code).toBe(0);
    expect(boot.stdout).toContain('sign in:           open http://127.0.0.1:8000/ as three@example.com');

    const { loadConfig } = await import('../src/config.js');
    const { createAccountServices } = await import('../src/services.js');
    const { SessionService } = await import('../src/core/auth/sessions.js');
    const { LoginThrottle } = await import('../src/core/auth/login-throttle.js');
    const services = await createAccountServices(loadConfig({ dataDir }, {}));
    try {
      const sessions = new SessionService(services.repositories, new LoginThrottle());
      await expect(sessions.signIn('one@example.com', 'piped passphrase 1', 'test')).resolves.toMatchObject({ secret: expect.any(String) });
      await expect(sessions.signIn('three@example.com', 'flagged passphrase', 'test')).resolves.toMatchObject({ secret: expect.any(String) });
      await expect(sessions.signIn('one@example.com', 'short', 'test')).rejects.toMatchObject({ code: 'invalid_credentials' });
    } finally {
      await services.close();
    }
    const files = fs.readdirSync(dataDir).filter((f) => f.startsWith('hoglet.sqlite3'));
    const contents = Buffer.concat(files.map((f) => fs.readFileSync(path.join(dataDir, f))));
    expect(contents.includes('piped passphrase 1')).toBe(false);
    expect(contents.includes('scrypt$')).toBe(true);
  });

  it('refuses bad input with a message and exit code 1', async () => {
    const badScope = await hoglet(['keys', 'create', '--email', 'one@example.com', '--scopes', 'project:admin', '--data-dir', dataDir]);
    expect(badScope.code).toBe(1);
    expect(badScope.stderr).toContain('Invalid scope: project:admin');
    const noUser = await hoglet(['keys', 'list', '--email', 'nobody@example.com', '--data-dir', dataDir]);
    expect(noUser.code).toBe(1);
    const badPort = await hoglet(['serve', '--port', 'abc', '--data-dir', dataDir]);
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toContain('--port must be a port number');
    const badDb = await hoglet(['migrate', '--data-dir', dataDir], { DATABASE_URL: 'mysql://x' });
    expect(badDb.code).toBe(1);
    expect(badDb.stderr).toContain('DATABASE_URL must be a postgres:// URL');
  });

  it('serve answers with the CLI working beside it, and SIGTERM drains an in-flight request', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, [BIN, 'serve', '--data-dir', dataDir, '--port', String(port), '--log-level', 'info'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (log += d));
    child.stderr!.on('data', (d) => (stderr += d));
    try {
      await waitForHealth(port, child);
      // The CLI works on the same data directory while the server runs.
      const boot = await hoglet(['bootstrap', '--email', 'live@example.com', '--json', '--data-dir', dataDir]);
      expect(boot.code).toBe(0);
      const creds = JSON.parse(boot.stdout);
      const got = await fetch(`http://127.0.0.1:${port}/api/projects/${creds.project_id}/`, {
        headers: { authorization: `Bearer ${creds.personal_api_key}` },
      });
      expect(got.status).toBe(200);

      // Start a request, send half its body, signal, then finish: it must still be answered.
      const body = JSON.stringify({ name: 'Drained' });
      const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/api/projects/',
            headers: {
              authorization: `Bearer ${creds.personal_api_key}`,
              'content-type': 'application/json',
              'content-length': Buffer.byteLength(body),
            },
          },
          (res) => {
            let text = '';
            res.on('data', (d) => (text += d));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 5));
        setTimeout(() => {
          child.kill('SIGTERM');
          setTimeout(() => req.end(body.slice(5)), 300);
        }, 200);
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      const result = await answer;
      expect(result.status).toBe(201);
      expect(JSON.parse(result.body).name).toBe('Drained');
      expect(await exited).toBe(0);
      expect(log).toContain('stopped cleanly');
      // It said where it listens, and (built already) did not compile again on start.
      expect(log).toContain(`Hoglet is listening on http://127.0.0.1:${port}`);
      expect(stderr).not.toContain('compiling');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
