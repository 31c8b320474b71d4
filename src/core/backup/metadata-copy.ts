// The backup's copy of the SQLite metadata, made on a worker thread: VACUUM INTO reads the whole
// file, and on the main thread (better-sqlite3 is synchronous) it would hold every request of every
// project, capture's acknowledgements included, for as long as that takes. The worker opens its
// own connection (WAL lets it read beside the server's) and sees one read transaction's snapshot.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

// Plain CommonJS run with `eval`, so the same code works from dist/ and under the test runner.
const SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driverPath);
try {
  const source = new Database(workerData.source, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 10000');
    source.prepare('VACUUM INTO ?').run(workerData.target);
  } finally {
    source.close();
  }
  const copy = new Database(workerData.target);
  try {
    copy.prepare('DELETE FROM query_cache WHERE computed_at >= ?').run(workerData.takenAt);
  } finally {
    copy.close();
  }
  parentPort.postMessage({ ok: true });
} catch (error) {
  parentPort.postMessage({ message: String((error && error.message) || error), code: error && error.code });
}
`;

/** Copies `source` into `target` (a new file), without the cached results computed at or after `takenAt`. */
export function copySqliteOffThread(source: string, target: string, takenAt: Date): Promise<void> {
  const driverPath = createRequire(import.meta.url).resolve('better-sqlite3');
  return new Promise((resolve, reject) => {
    const worker = new Worker(SOURCE, { eval: true, workerData: { driverPath, source, target, takenAt: takenAt.toISOString() } });
    let settled = false;
    worker.once('message', (message: { ok?: true; message?: string; code?: string }) => {
      settled = true;
      if (message.ok) return resolve();
      // The code (SQLITE_FULL, ...) is how the caller tells a full disk.
      reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the metadata copy's worker stopped (exit ${code})`));
    });
  });
}
