// The event store every test app uses: one embedded chDB per test process (chDB allows one data
// directory per process), each app in a database of its own; or a ClickHouse server when
// HOGLET_TEST_CLICKHOUSE_URL (or CLICKHOUSE_URL) is set, again one database per app.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '../../src/config.js';

const clickhouseUrl = (process.env.HOGLET_TEST_CLICKHOUSE_URL ?? process.env.CLICKHOUSE_URL)?.trim() || null;

export const EVENT_STORE_KIND = clickhouseUrl ? 'clickhouse server' : 'chdb';

let sharedChdbPath: string | null = null;

function chdbPathOfThisProcess(): string {
  if (!sharedChdbPath) {
    sharedChdbPath = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-test-chdb-'));
    const dir = sharedChdbPath;
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return sharedChdbPath;
}

/** The config with its event store moved to this process's shared engine and a fresh database. */
export function withTestEventStore(config: Config): Config {
  const database = `hoglet_t_${randomBytes(5).toString('hex')}`;
  return Object.freeze({
    ...config,
    events: Object.freeze({
      ...config.events,
      clickhouseUrl,
      chdbPath: chdbPathOfThisProcess(),
      database,
    }),
  });
}
