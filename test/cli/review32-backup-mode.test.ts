// A backup holds everything the data directory does (password hashes, key digests, every event):
// `hoglet backup` writes its archive readable by its owner only (issue 32's review), wherever the
// operator puts it and whatever the umask, as pg_dump's custom-format files are usually kept.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hoglet } from '../helpers/processes.js';

delete process.env.DATABASE_URL;
delete process.env.CLICKHOUSE_URL;
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-review32-mode-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('hoglet backup', () => {
  it('writes the archive for its owner only', async () => {
    const dataDir = path.join(root, 'data');
    const boot = await hoglet(['bootstrap', '--email', 'mode@example.com', '--project', 'Kept', '--json', '--data-dir', dataDir]);
    expect(boot.code, boot.stderr).toBe(0);
    const archive = path.join(root, 'backup.tar');
    const backup = await hoglet(['backup', '--data-dir', dataDir, '--output', archive]);
    expect(backup.code, backup.stderr).toBe(0);
    expect((fs.statSync(archive).mode & 0o777).toString(8)).toBe('600');
  }, 300_000);
});
