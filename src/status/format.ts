// `hoglet status` for a person at a terminal (--json prints the DataStatus itself).
import type { DataStatus } from './data-status.js';

export function formatDataStatus(status: DataStatus): string {
  const { migrations: m, sizes, capture } = status;
  const level = (applied: number | null, current: number, bytesOnDisk: number | null) =>
    applied === null
      ? `${bytesOnDisk === 0 ? 'none yet' : 'not read'} (this version: ${current})`
      : applied < current
        ? `${applied} (this version migrates it to ${current} when it starts)`
        : applied > current
          ? `${applied} (newer than this version's ${current}: written by a later Hoglet)`
          : `${applied}`;
  const lines = [
    `Hoglet ${status.version}, data directory ${status.data_dir}`,
    `server:      ${status.server ? `running (pid ${status.server.pid}) at ${status.server.url}` : 'not running'}`,
    `migrations:  metadata ${level(m.metadata, m.current.metadata, sizes.metadata)}, event store ${level(m.events, m.current.events, sizes.event_store)}`,
    `on disk:     metadata ${bytes(sizes.metadata)}, event store ${bytes(sizes.event_store)}, capture log ${bytes(sizes.capture_log)}`,
    capture
      ? `capture log: ${capture.waiting_events} event(s) waiting to be inserted, records acknowledged ${capture.log.acknowledged}, inserted ${capture.log.inserted}, ${capture.set_aside_events} event(s) set aside in ${capture.set_aside_files} file(s)`
      : 'capture log: unknown',
  ];
  if (capture && capture.set_aside_files > 0) lines.push('             (insert the set-aside events again with: hoglet capture reinsert)');
  lines.push('', ...projectTable(status.projects));
  if (status.unread.length > 0) lines.push('', 'could not read:', ...status.unread.map((why) => `  - ${why}`));
  return lines.join('\n');
}

function projectTable(projects: DataStatus['projects']): string[] {
  if (projects.length === 0) return ['projects:    none'];
  const rows = [
    ['project', 'name', 'events', 'persons'],
    ...projects.map((p) => [String(p.id), p.name ?? '(not in the metadata store)', count(p.events), count(p.persons)]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  // Names left-aligned, numbers right-aligned.
  return rows.map((row) => row.map((cell, column) => (column === 1 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ').trimEnd());
}

const count = (n: number | null) => (n === null ? '?' : String(n));

function bytes(n: number | null): string {
  if (n === null) return 'unknown';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${n} B` : `${value.toFixed(1)} ${units[unit]}`;
}
