// `hoglet restore` of a hostile archive (issue 32's review): whatever a tar file holds, a restore
// writes nothing outside the target directory, leaves no link there that leads outside it, sets no
// setuid/setgid/sticky bit, and refuses an oversized pax header instead of allocating it. The
// archives are made here, entry by entry, as an attacker would (ustar headers, pax records), and
// restored by the command's own code (restoreDataDir). fast-check generates the entry lists.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackupError, restoreDataDir } from '../../src/backup.js';

type Hostile = { name: string; type: '0' | '2' | '5' | 'x'; body?: string; linkname?: string; mode?: number; size?: number };

const quiet = { step: () => {}, bytes: () => {} };
const manifest = JSON.stringify({ format: 1, hoglet_version: 'test', taken_at: '2026-01-01T00:00:00.000Z', paused_ms: 0, migrations: { metadata: null, event_store: null }, capture_log: { inserted_seq: 0, segments: 0, bytes: 0 }, event_tables: [] });

function header(name: string, type: string, size: number, mode: number, linkname = ''): Buffer {
  const block = Buffer.alloc(512);
  const octal = (value: number, offset: number, length: number) => block.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'ascii');
  block.write(name, 0, 100, 'utf8');
  octal(mode, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(size, 124, 12);
  octal(0, 136, 12);
  block.write('        ', 148, 8, 'ascii');
  block.write(type, 156, 1, 'ascii');
  block.write(linkname, 157, 100, 'utf8');
  block.write('ustar\0', 257, 6, 'ascii');
  block.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return block;
}

const padded = (body: Buffer) => Buffer.concat([body, Buffer.alloc((512 - (body.length % 512)) % 512)]);

/** A tar of the manifest and then `entries`, in order, with the end marker. */
function archive(entries: Hostile[]): Buffer {
  const parts = [header('manifest.json', '0', Buffer.byteLength(manifest), 0o644), padded(Buffer.from(manifest))];
  for (const entry of entries) {
    const body = Buffer.from(entry.body ?? '');
    parts.push(header(entry.name, entry.type, entry.size ?? (entry.type === '0' || entry.type === 'x' ? body.length : 0), entry.mode ?? 0o644, entry.linkname ?? ''));
    if (entry.type === '0' || entry.type === 'x') parts.push(padded(body));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** Every path under `dir`, without following links. */
function tree(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(prefix, entry.name);
    return entry.isDirectory() ? [relative, ...tree(path.join(dir, entry.name), relative)] : [relative];
  });
}

let root: string;
let target: string;
let input: string;

beforeEach(() => {
  // root holds the archive, the target and a bystander directory a slip would reach.
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-review32-restore-'));
  fs.mkdirSync(path.join(root, 'bystander'));
  target = path.join(root, 'restored');
  input = path.join(root, 'hostile.tar');
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

async function restore(entries: Hostile[]): Promise<unknown> {
  fs.writeFileSync(input, archive(entries));
  return restoreDataDir(input, target, quiet).then(() => null, (error: unknown) => error);
}

/** Nothing but the archive, the bystander (still empty) and the target beside the target. */
function expectNothingOutside(): void {
  expect(fs.readdirSync(root).sort()).toEqual(['bystander', 'hostile.tar', 'restored'].filter((n) => fs.existsSync(path.join(root, n))).sort());
  expect(fs.readdirSync(path.join(root, 'bystander'))).toEqual([]);
}

/** Every link left in the target resolves inside it (or nowhere). */
function expectLinksInside(): void {
  if (!fs.existsSync(target)) return;
  const real = fs.realpathSync(target);
  for (const relative of tree(target)) {
    const file = path.join(target, relative);
    if (!fs.lstatSync(file).isSymbolicLink()) continue;
    let resolved: string;
    try {
      resolved = fs.realpathSync(file);
    } catch {
      continue;
    }
    expect(resolved === real || resolved.startsWith(`${real}${path.sep}`), `${relative} -> ${fs.readlinkSync(file)} resolves to ${resolved}`).toBe(true);
  }
}

describe('hoglet restore of a hostile archive', () => {
  it('a link to "." and a link to ".." through it cannot carry a file out of the directory', async () => {
    // s -> . (inside); s/up -> .. is checked as restored/s/.. (= restored) but lands as restored/up -> ..
    const error = await restore([
      { name: 's', type: '2', linkname: '.' },
      { name: 's/up', type: '2', linkname: '..' },
      { name: 'up/bystander/escaped', type: '0', body: 'out' },
    ]);
    expect(error).toBeInstanceOf(BackupError);
    expectNothingOutside();
    expect(fs.existsSync(path.join(root, 'bystander', 'escaped'))).toBe(false);
  });

  it('a link whose target walks back through another link is refused', async () => {
    const error = await restore([
      { name: 's', type: '2', linkname: '.' },
      { name: 'out', type: '2', linkname: 's/../bystander' },
    ]);
    expect(error).toBeInstanceOf(BackupError);
    expectLinksInside();
  });

  it('sets no setuid, setgid or sticky bit from the archive', async () => {
    expect(await restore([{ name: 'bin', type: '5', mode: 0o7777 }, { name: 'bin/tool', type: '0', body: '#!/bin/sh\n', mode: 0o6755 }])).toBeNull();
    expect(fs.statSync(path.join(target, 'bin', 'tool')).mode & 0o7000).toBe(0);
    expect(fs.statSync(path.join(target, 'bin')).mode & 0o7000).toBe(0);
  });

  it('refuses a pax header larger than any a backup writes instead of allocating it', async () => {
    // 4 GiB claimed, none present: a reader that allocates it first runs out of memory.
    const error = await restore([{ name: 'PaxHeader', type: 'x', size: 4 * 1024 ** 3 - 1 }, { name: 'x', type: '0', body: 'x' }]);
    expect(error).toBeInstanceOf(BackupError);
    expect(String((error as Error).message)).toMatch(/damaged/);
  });

  it('never restores into a directory that holds anything, and leaves what is there alone', async () => {
    fs.mkdirSync(target);
    fs.writeFileSync(path.join(target, 'hoglet.sqlite3'), 'live');
    expect(await restore([{ name: 'hoglet.sqlite3', type: '0', body: 'old' }])).toBeInstanceOf(BackupError);
    expect(fs.readdirSync(target)).toEqual(['hoglet.sqlite3']);
    expect(fs.readFileSync(path.join(target, 'hoglet.sqlite3'), 'utf8')).toBe('live');
  });

  it('says an archive whose manifest is not a backup manifest is not a backup', async () => {
    for (const body of ['{not json', '[]', '{"format":"1"}', 'null']) {
      const tar = Buffer.concat([header('manifest.json', '0', Buffer.byteLength(body), 0o644), padded(Buffer.from(body)), Buffer.alloc(1024)]);
      fs.writeFileSync(input, tar);
      const error = await restoreDataDir(input, target, quiet).then(() => null, (e: unknown) => e);
      expect(error, body).toBeInstanceOf(BackupError);
      expect(fs.existsSync(target), body).toBe(false);
    }
  });

  it('restores links inside the directory, as a backup of the event store has them', async () => {
    expect(await restore([
      { name: 'events', type: '5', mode: 0o755 },
      { name: 'events/store', type: '5', mode: 0o755 },
      { name: 'events/store/abc', type: '5', mode: 0o755 },
      { name: 'events/store/abc/part', type: '0', body: 'rows' },
      { name: 'events/metadata', type: '5', mode: 0o755 },
      { name: 'events/metadata/hoglet', type: '2', linkname: '../store/abc/' },
    ])).toBeNull();
    expect(fs.readFileSync(path.join(target, 'events', 'metadata', 'hoglet', 'part'), 'utf8')).toBe('rows');
  });

  it('whatever entries a generated archive holds, nothing lands outside and no link leads out', { timeout: 120_000 }, async () => {
    const segment = fc.constantFrom('a', 'b', 's', 'up', '.', '..', 'bystander', '');
    const relative = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
    const linkname = fc.oneof(relative, relative.map((p) => `/${p}`), fc.constant(root), fc.constant(path.join(root, 'bystander')), fc.constant(`${root}/restored/../bystander`));
    const entry: fc.Arbitrary<Hostile> = fc.oneof(
      fc.record({ name: relative, type: fc.constant('0' as const), body: fc.constant('x'), mode: fc.constantFrom(0o644, 0o4755, 0o7777) }),
      fc.record({ name: relative, type: fc.constant('5' as const), mode: fc.constantFrom(0o755, 0o1777) }),
      fc.record({ name: relative, type: fc.constant('2' as const), linkname }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { minLength: 1, maxLength: 8 }), async (entries) => {
        fs.rmSync(target, { recursive: true, force: true });
        fs.rmSync(path.join(root, 'bystander'), { recursive: true, force: true });
        for (const name of fs.readdirSync(root)) if (!['hostile.tar', 'restored'].includes(name)) fs.rmSync(path.join(root, name), { recursive: true, force: true });
        fs.mkdirSync(path.join(root, 'bystander'));
        const error = await restore(entries);
        if (error !== null && !(error instanceof BackupError)) {
          // Refusals are the command's own (BackupError); the file system's may stand for a clash of names.
          expect((error as NodeJS.ErrnoException).code, String(error)).toMatch(/^(EEXIST|ENOTDIR|EISDIR|ELOOP|ENOENT)$/);
        }
        expectNothingOutside();
        expectLinksInside();
        if (fs.existsSync(target)) {
          for (const relative of tree(target)) expect(fs.lstatSync(path.join(target, relative)).mode & 0o7000, relative).toBe(0);
        }
      }),
      { numRuns: 300, endOnFailure: true },
    );
  });
});
