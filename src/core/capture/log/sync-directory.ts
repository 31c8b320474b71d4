// A directory's own entries made durable: after a file is created or renamed in it, the new name
// survives a crash only once the directory itself is fsync'd.
import fs from 'node:fs';
import fsp from 'node:fs/promises';

export async function syncDirectory(directory: string): Promise<void> {
  const handle = await fsp.open(directory, fs.constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
