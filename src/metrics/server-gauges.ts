// What GET /metrics reads from a running server at scrape time: capture's backlog and log, and the
// event store's parts. The parts come from system.parts, kept a few seconds so frequent scrapes
// cost the store one small read at most every PARTS_TTL_MS.
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Gauge, Registry } from 'prom-client';
import type { Services } from '../services.js';

export const PARTS_TTL_MS = 5_000;
/** A scrape waits this long for a fresh parts read, then answers with what it has. */
const PARTS_WAIT_MS = 2_000;

interface TableParts {
  table: string;
  parts: number;
  rows: number;
  bytes: number;
}

/** The capture log's segment files (what is acknowledged and not yet known inserted), in bytes. */
async function captureLogBytes(directory: string): Promise<number> {
  const entries = await fsp.readdir(directory, { withFileTypes: true }).catch(() => []);
  let bytes = 0;
  for (const entry of entries) {
    if (!entry.isFile() || !entry.name.endsWith('.log')) continue;
    bytes += await fsp.stat(path.join(directory, entry.name)).then((stat) => stat.size, () => 0);
  }
  return bytes;
}

class PartsReader {
  private value: TableParts[] = [];
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;

  constructor(private readonly services: Services) {}

  async current(): Promise<TableParts[]> {
    if (Date.now() - this.readAt >= PARTS_TTL_MS) {
      this.reading ??= this.read().finally(() => (this.reading = null));
      await Promise.race([this.reading, new Promise((resolve) => setTimeout(resolve, PARTS_WAIT_MS).unref())]);
    }
    return this.value;
  }

  private async read(): Promise<void> {
    // Off the query lane: a scrape neither queues behind analytical queries nor waits for capture's
    // read barrier; on the persons lane it is one short statement between person writes.
    const rows = await this.services.events.query<{ table: string; parts: string; rows: string; bytes: string }>(
      'SELECT table, count() AS parts, sum(rows) AS rows, sum(bytes_on_disk) AS bytes FROM system.parts WHERE database = {database:String} AND active GROUP BY table ORDER BY table',
      { database: this.services.events.layout.database },
      { lane: 'persons', timeoutSeconds: 5 },
    ).catch(() => null);
    this.readAt = Date.now();
    // An unreadable store reports no parts rather than old numbers.
    this.value = rows ? rows.map((row) => ({ table: row.table, parts: Number(row.parts), rows: Number(row.rows), bytes: Number(row.bytes) })) : [];
  }
}

/** A registry of this server's gauges, each read when scraped. */
export function serverGauges(services: Services): Registry {
  const registry = new Registry();
  const parts = new PartsReader(services);
  // Registered before the backlog, whose collect sets it from the same status read.
  const setAside = new Gauge({
    name: 'hoglet_capture_set_aside_events',
    help: 'Acknowledged events the event store refused, kept in capture-log/refused/ for `hoglet capture reinsert`.',
    registers: [registry],
  });
  new Gauge({
    name: 'hoglet_capture_backlog_events',
    help: 'Acknowledged events waiting to be inserted into the event store (capture answers 503 past its bound).',
    registers: [registry],
    async collect() {
      const status = await services.captureStatus();
      this.set(status.waiting_events);
      setAside.set(status.set_aside_events);
    },
  });
  new Gauge({
    name: 'hoglet_capture_log_bytes',
    help: "The capture log's segment files on disk, in bytes (deleted once their events are inserted).",
    registers: [registry],
    async collect() {
      this.set(await captureLogBytes(services.config.captureLogDir));
    },
  });
  const perTable = (name: string, help: string, pick: (table: TableParts) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['table'] as const,
      registers: [registry],
      async collect() {
        this.reset();
        for (const table of await parts.current()) this.set({ table: table.table }, pick(table));
      },
    });
  perTable('hoglet_event_store_parts', `Active parts per table in the event store (system.parts, read at most every ${PARTS_TTL_MS / 1000} s). Many parts mean merges are behind.`, (t) => t.parts);
  perTable('hoglet_event_store_rows', 'Rows per table in the event store (active parts; not yet merged duplicates count).', (t) => t.rows);
  perTable('hoglet_event_store_bytes', 'Bytes on disk per table in the event store (active parts).', (t) => t.bytes);
  return registry;
}
