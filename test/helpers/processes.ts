// The `hoglet` command and servers as real child processes.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const BIN = path.resolve('bin/hoglet.js');

/** Runs `hoglet ...args`; never throws, the exit code is in the result. */
export async function hoglet(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, ...env }, maxBuffer: 10 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** Settles when the process has exited (listened for from the start, so no exit is missed). */
  exited: Promise<unknown>;
}

/**
 * `hoglet serve` on a data directory, once `/_health` answers; `nodeArgs` go to node itself.
 * Its log (stderr) goes to the test's output, or to `child.stderr` with `stderr: 'pipe'`.
 */
export async function startServer(dataDir: string, port: number, nodeArgs: string[] = [], options: { stderr?: 'inherit' | 'pipe' } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, [...nodeArgs, BIN, 'serve', '--data-dir', dataDir, '--port', String(port), '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', options.stderr ?? 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    if (await fetch(`http://127.0.0.1:${port}/_health`).then((r) => r.ok, () => false)) return { child, exited };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not become healthy');
}
