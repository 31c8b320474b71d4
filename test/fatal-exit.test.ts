// A fatal error ends the server process with a non-zero status, so a supervisor restarts it: an
// exhausted heap (which left the process hung at 0% CPU, chDB's abort handler waiting for
// nothing), an exception nobody catches and a rejection nobody handles. Real `hoglet serve`
// processes, made to fail on a signal by a preloaded fixture.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startServer } from './helpers/processes.js';

const dataDirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(() => {
  // A server that did not end (the failure this file guards against) must not outlive the test.
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  dataDirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true }));
});
/** How long a failing server may take to end before the test calls it hung. */
const ENDS_WITHIN_MS = 30_000;

const fixture = path.resolve('test/fixtures/fatal/on-sigusr2.mjs');

/** A server that fails as `mode` says on SIGUSR2; how it ended, or 'hung'. */
async function failingServer(mode: string, nodeArgs: string[] = []) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-fatal-'));
  dataDirs.push(dataDir);
  const server = await startServer(dataDir, await freePort(), [...nodeArgs, '--import', `${pathToFileURL(fixture).href}?mode=${mode}`]);
  children.push(server.child);
  let timer: NodeJS.Timeout | undefined;
  const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    server.child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const hung = new Promise<'hung'>((resolve) => { timer = setTimeout(() => resolve('hung'), ENDS_WITHIN_MS); });
  server.child.kill('SIGUSR2');
  try {
    return await Promise.race([ended, hung]);
  } finally {
    clearTimeout(timer);
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  }
}

describe('fatal errors end the server process', () => {
  it('an exhausted heap aborts the process within seconds', async () => {
    const ended = await failingServer('heap', ['--max-old-space-size=192']);
    expect(ended).not.toBe('hung');
    expect(ended).toSatisfy((end: { code: number | null; signal: string | null }) => end.signal === 'SIGABRT' || end.code === 134);
  }, 90_000);

  it.each(['throw', 'reject'])('an uncaught %s exits with status 1', async (mode) => {
    const ended = await failingServer(mode);
    expect(ended).toMatchObject({ code: 1, signal: null });
  }, 60_000);
});
