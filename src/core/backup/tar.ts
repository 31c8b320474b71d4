// A plain POSIX tar (ustar, with a pax header for a path or size ustar cannot hold) of regular
// files, directories and symlinks: what a backup holds. Written and read here, with no dependency,
// so that `tar tf` and `tar xf` on any system read a backup too. Not compressed: the event
// store's parts are compressed already.
import fsp from 'node:fs/promises';
import path from 'node:path';

const BLOCK = 512;
const CHUNK = 1024 * 1024;
/** Far above any pax header a backup writes (a long path), far below what would strain memory. */
const MAX_PAX_BYTES = 64 * 1024;

type Kind = 'file' | 'directory' | 'symlink';

interface Entry {
  name: string;
  kind: Kind;
  size: number;
  mode: number;
  mtime: number;
  linkname: string;
}

/** The archive's entries' bytes under `root` (for a progress bar). */
export async function treeBytes(root: string, names: string[]): Promise<number> {
  let total = 0;
  for await (const { size } of walk(root, names)) total += size;
  return total;
}

/** Writes the named files and directories under `root` (recursively) to `out`, in order. */
export async function writeTar(root: string, names: string[], out: fsp.FileHandle, onBytes: (bytes: number) => void): Promise<number> {
  let position = 0;
  const write = async (buffer: Buffer) => {
    let written = 0;
    while (written < buffer.length) written += (await out.write(buffer, written, buffer.length - written, position + written)).bytesWritten;
    position += buffer.length;
  };
  let done = 0;
  for await (const entry of walk(root, names)) {
    await write(header(entry));
    if (entry.kind !== 'file') continue;
    const source = await fsp.open(path.join(root, entry.name), 'r');
    try {
      const buffer = Buffer.alloc(CHUNK);
      let left = entry.size;
      while (left > 0) {
        const { bytesRead } = await source.read(buffer, 0, Math.min(CHUNK, left), entry.size - left);
        if (bytesRead === 0) throw new Error(`${entry.name} shrank while it was archived`);
        await write(buffer.subarray(0, bytesRead));
        left -= bytesRead;
        done += bytesRead;
        onBytes(done);
      }
    } finally {
      await source.close();
    }
    const pad = (BLOCK - (entry.size % BLOCK)) % BLOCK;
    if (pad > 0) await write(Buffer.alloc(pad));
  }
  await write(Buffer.alloc(BLOCK * 2));
  return position;
}

async function* walk(root: string, names: string[]): AsyncGenerator<Entry> {
  for (const name of names) {
    const stat = await fsp.lstat(path.join(root, name));
    const base = { name, mode: stat.mode & 0o7777, mtime: Math.floor(stat.mtimeMs / 1000), size: 0, linkname: '' };
    if (stat.isSymbolicLink()) {
      yield { ...base, kind: 'symlink', linkname: await fsp.readlink(path.join(root, name)) };
    } else if (stat.isFile()) {
      yield { ...base, kind: 'file', size: stat.size };
    } else if (stat.isDirectory()) {
      yield { ...base, kind: 'directory' };
      const children = (await fsp.readdir(path.join(root, name))).sort();
      yield* walk(root, children.map((child) => `${name}/${child}`));
    }
  }
}

function header(entry: Entry): Buffer {
  const name = entry.kind === 'directory' ? `${entry.name}/` : entry.name;
  const pax: Record<string, string> = {};
  const split = splitName(name);
  if (!split) pax.path = name;
  if (Buffer.byteLength(entry.linkname) > 100) pax.linkpath = entry.linkname;
  if (entry.size > 0o77777777777) pax.size = String(entry.size);
  const block = ustar({
    name: split?.name ?? name.slice(-100),
    prefix: split?.prefix ?? '',
    size: pax.size ? 0 : entry.size,
    mode: entry.mode,
    mtime: entry.mtime,
    type: entry.kind === 'file' ? '0' : entry.kind === 'directory' ? '5' : '2',
    linkname: pax.linkpath ? '' : entry.linkname,
  });
  if (Object.keys(pax).length === 0) return block;
  const body = Buffer.from(Object.entries(pax).map(([key, value]) => paxRecord(key, value)).join(''));
  const paxHeader = ustar({ name: 'PaxHeader', prefix: '', size: body.length, mode: 0o644, mtime: entry.mtime, type: 'x', linkname: '' });
  const pad = Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK);
  return Buffer.concat([paxHeader, body, pad, block]);
}

/** ustar's name (100 bytes) and prefix (155), split at a slash; null when it does not fit. */
function splitName(name: string): { name: string; prefix: string } | null {
  if (Buffer.byteLength(name) <= 100) return { name, prefix: '' };
  for (let i = name.indexOf('/'); i !== -1; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(rest) <= 100 && rest !== '') return { name: rest, prefix };
  }
  return null;
}

/** "<length> key=value\n", where the length counts itself. */
function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  let length = Buffer.byteLength(rest) + 1;
  while (String(length).length + Buffer.byteLength(rest) !== length) length++;
  return `${length}${rest}`;
}

function ustar(fields: { name: string; prefix: string; size: number; mode: number; mtime: number; type: string; linkname: string }): Buffer {
  const block = Buffer.alloc(BLOCK);
  const put = (value: string, offset: number, length: number) => block.write(value, offset, length, 'utf8');
  const octal = (value: number, offset: number, length: number) => put(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length);
  put(fields.name, 0, 100);
  octal(fields.mode, 100, 8);
  octal(0, 108, 8);
  octal(0, 116, 8);
  octal(fields.size, 124, 12);
  octal(fields.mtime, 136, 12);
  put('        ', 148, 8);
  put(fields.type, 156, 1);
  put(fields.linkname, 157, 100);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  put(fields.prefix, 345, 155);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8);
  return block;
}

export class TarFormatError extends Error {}

/** The first regular file's contents, if it is named `name` (a backup's manifest comes first). */
export async function readFirstFile(input: fsp.FileHandle, name: string, maxBytes: number): Promise<Buffer | null> {
  for await (const entry of entries(input)) {
    if (entry.kind !== 'file' || entry.name !== name || entry.size > maxBytes) return null;
    const buffer = Buffer.alloc(entry.size);
    await input.read(buffer, 0, entry.size, entry.offset);
    return buffer;
  }
  return null;
}

/**
 * Extracts everything into `dest` (which must exist). Paths may not leave it, nothing is written
 * through a link the archive made, and a link may only climb out of its own (real) directory
 * before naming its way down, so an archive cannot write, or point, elsewhere. Modes keep only
 * their permission bits (no setuid, setgid or sticky bit from a file one did not write).
 */
export async function extractTar(input: fsp.FileHandle, dest: string, onBytes: (bytes: number) => void): Promise<void> {
  const root = path.resolve(dest);
  const inside = (target: string) => target === root || target.startsWith(`${root}${path.sep}`);
  const realDirs = new Set<string>([root]);
  let done = 0;
  for await (const entry of entries(input)) {
    const target = path.resolve(root, entry.name);
    if (!inside(target) || entry.name.split('/').includes('..')) throw new TarFormatError(`the archive names a path outside the directory: ${entry.name}`);
    await refuseLinkedParents(root, target, realDirs, entry.name);
    const mode = entry.mode & 0o777;
    if (entry.kind === 'directory') {
      await fsp.mkdir(target, { recursive: true, mode: mode || 0o755 });
    } else if (entry.kind === 'symlink') {
      if (!climbsThenDescends(entry.linkname) || !inside(path.resolve(path.dirname(target), entry.linkname))) throw new TarFormatError(`the archive links outside the directory: ${entry.name}`);
      await fsp.mkdir(path.dirname(target), { recursive: true });
      await fsp.symlink(entry.linkname, target);
    } else {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      const out = await fsp.open(target, 'wx', mode || 0o644);
      try {
        const buffer = Buffer.alloc(CHUNK);
        let copied = 0;
        while (copied < entry.size) {
          const { bytesRead } = await input.read(buffer, 0, Math.min(CHUNK, entry.size - copied), entry.offset + copied);
          if (bytesRead === 0) throw new TarFormatError(`the archive ends inside ${entry.name}`);
          let written = 0;
          while (written < bytesRead) written += (await out.write(buffer, written, bytesRead - written, copied + written)).bytesWritten;
          copied += bytesRead;
          done += bytesRead;
          onBytes(done);
        }
      } finally {
        await out.close();
      }
    }
  }
}

/**
 * Refuses an entry whose parent path passes through a link (say `s -> .`, then `s/up -> ..`,
 * checked as `s/..` but landing as `up -> ..`): a backup never writes below a link. Directories
 * already seen to be real are remembered; nothing here replaces one.
 */
async function refuseLinkedParents(root: string, target: string, realDirs: Set<string>, name: string): Promise<void> {
  const missing: string[] = [];
  if (target === root) return;
  for (let dir = path.dirname(target); !realDirs.has(dir); dir = path.dirname(dir)) missing.unshift(dir);
  for (const dir of missing) {
    const stat = await fsp.lstat(dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (stat === null) return; // made below as a directory, with what follows it
    if (stat.isSymbolicLink()) throw new TarFormatError(`the archive writes through a link: ${name}`);
    realDirs.add(dir);
  }
}

/** `../` as often as wanted, then names only: where it leads is then known without following links. */
function climbsThenDescends(linkname: string): boolean {
  const parts = linkname.split('/');
  const firstName = parts.findIndex((part) => part !== '..');
  return firstName === -1 || !parts.slice(firstName).includes('..');
}

interface ReadEntry {
  name: string;
  kind: Kind;
  size: number;
  mode: number;
  linkname: string;
  /** Where its contents start in the archive. */
  offset: number;
}

async function* entries(input: fsp.FileHandle): AsyncGenerator<ReadEntry> {
  const block = Buffer.alloc(BLOCK);
  let position = 0;
  let pax: Record<string, string> = {};
  for (;;) {
    const { bytesRead } = await input.read(block, 0, BLOCK, position);
    if (bytesRead < BLOCK) throw new TarFormatError('the archive is cut short (no end marker)');
    if (block.every((byte) => byte === 0)) return;
    if (!checksumMatches(block)) throw new TarFormatError(`not a tar archive, or damaged at byte ${position}`);
    const text = (offset: number, length: number) => block.toString('utf8', offset, offset + length).replace(/\0.*$/s, '');
    const type = text(156, 1) || '0';
    const size = pax.size !== undefined ? Number(pax.size) : parseInt(text(124, 12).trim() || '0', 8);
    if (!Number.isSafeInteger(size) || size < 0) throw new TarFormatError(`an entry's size is not a size, at byte ${position}`);
    const offset = position + BLOCK;
    position = offset + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x' || type === 'g') {
      // A backup's pax records are a path and a size: a header claiming more is not one of ours.
      if (size > MAX_PAX_BYTES) throw new TarFormatError(`a pax header of ${size} bytes at byte ${offset - BLOCK}`);
    }
    if (type === 'x') {
      const body = Buffer.alloc(size);
      await input.read(body, 0, size, offset);
      pax = parsePax(body.toString('utf8'));
      continue;
    }
    if (type === 'g') continue;
    const prefix = text(345, 155);
    const name = (pax.path ?? (prefix ? `${prefix}/${text(0, 100)}` : text(0, 100))).replace(/\/$/, '');
    const linkname = pax.linkpath ?? text(157, 100);
    pax = {};
    const kind: Kind | null = type === '0' || type === '7' ? 'file' : type === '5' ? 'directory' : type === '2' ? 'symlink' : null;
    if (!kind) throw new TarFormatError(`the archive holds an entry of type ${type} (${name}), which a backup never has`);
    yield { name, kind, size: kind === 'file' ? size : 0, mode: parseInt(text(100, 8).trim() || '0', 8), linkname, offset };
  }
}

function checksumMatches(block: Buffer): boolean {
  const stored = parseInt(block.toString('ascii', 148, 156).replace(/\0.*$/s, '').trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : block[i]!;
  return sum === stored;
}

function parsePax(text: string): Record<string, string> {
  const records: Record<string, string> = {};
  let rest = Buffer.from(text);
  while (rest.length > 0) {
    const space = rest.indexOf(0x20);
    const length = Number(rest.toString('utf8', 0, space));
    if (!Number.isSafeInteger(length) || length <= 0) break;
    const record = rest.toString('utf8', space + 1, length - 1);
    const equals = record.indexOf('=');
    records[record.slice(0, equals)] = record.slice(equals + 1);
    rest = rest.subarray(length);
  }
  return records;
}
