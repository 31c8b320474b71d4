// Number and date formatting shared by charts, legends and tables.
const integer = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function num(value: unknown): string {
  if (value === null || value === undefined) return '–';
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value);
  return integer.format(value);
}

export function pct(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return `${(Math.round(value * 10) / 10).toFixed(1)}%`;
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '–';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleString('en-GB', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function ago(iso: string | null | undefined): string {
  if (!iso) return '–';
  const seconds = (Date.now() - new Date(iso).getTime()) / 1000;
  if (!Number.isFinite(seconds)) return iso;
  if (seconds < 60) return 'just now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 86400 * 30) return `${Math.floor(seconds / 86400)} d ago`;
  return when(iso);
}

/** Seconds as "1h 2m", "3m 4s", "5s". */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

/** PostHog's placeholder breakdown values, as its app shows them. */
export function breakdownLabel(value: unknown): string {
  if (value === '$$_posthog_breakdown_null_$$' || value === null || value === '') return 'None';
  if (value === '$$_posthog_breakdown_other_$$') return 'Other';
  if (Array.isArray(value)) return value.map(breakdownLabel).join(', ');
  return String(value);
}

export const PALETTE = ['#1d4aff', '#f04f58', '#30b26b', '#f7a501', '#9a4de3', '#13b5c8', '#ff7a45', '#6b7280', '#c0398c', '#7c9a1c'];
export const color = (i: number): string => PALETTE[i % PALETTE.length]!;
