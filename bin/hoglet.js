#!/usr/bin/env node
// The `hoglet` command. The TypeScript sources (src/) and the web app (web/) are built into dist/
// by `npm ci` (prepare) or `npm run build`; in a checkout whose sources changed since, it builds
// them first, so `npm start` never runs stale code and never builds twice after `npm ci`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// chDB's statements run on libuv's thread pool, as do file writes and capture's fsyncs: with the
// default 4 threads, the engine's lanes running long queries at once would hold every fsync, and
// with it capture's 200s. Sized here, before anything in this process uses the pool.
process.env.UV_THREADPOOL_SIZE ??= '16';

const entry = new URL('../dist/cli.js', import.meta.url);
const sources = fileURLToPath(new URL('../src', import.meta.url));
const webSources = fileURLToPath(new URL('../web', import.meta.url));
const webEntry = fileURLToPath(new URL('../dist/web/index.html', import.meta.url));

/** The newest modification time of any file below a directory. */
function newestChange(dir) {
  let newest = 0;
  for (const item of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (item.isFile()) newest = Math.max(newest, statSync(`${item.parentPath ?? item.path}/${item.name}`).mtimeMs);
  }
  return newest;
}

/** Whether a build from `dir` is missing or older than the newest change under `dir`. */
const outdated = (dir, built) => existsSync(dir) && (!existsSync(built) || newestChange(dir) > statSync(built).mtimeMs);
const stale = !existsSync(entry) || outdated(sources, fileURLToPath(entry)) || outdated(webSources, webEntry);
if (stale) {
  if (!existsSync(sources)) {
    process.stderr.write('hoglet: dist/ is missing; run `npm run build` in the checkout first.\n');
    process.exit(1);
  }
  process.stderr.write('hoglet: the sources changed since the last build; compiling (npm run build)...\n');
  const build = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import(entry.href);
