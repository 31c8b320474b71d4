// ClickHouse DateTime64(6) text for a microsecond timestamp, e.g. "2024-05-01 10:00:00.123456".
export function formatMicros(us: number): string {
  const ms = Math.floor(us / 1000);
  const iso = new Date(ms).toISOString(); // 2024-05-01T10:00:00.123Z
  const micros = String(Math.round(us - ms * 1000)).padStart(3, '0');
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}${micros}`;
}

/** Microseconds since the epoch from ClickHouse DateTime64 text in UTC. */
export function parseMicros(text: string): number {
  const [whole = '', fraction = ''] = text.split('.');
  const seconds = Date.parse(`${whole.replace(' ', 'T')}Z`);
  return seconds * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}
