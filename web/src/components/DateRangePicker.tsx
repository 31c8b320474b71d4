// A date range: PostHog's relative presets, or custom from/to dates. `noneLabel` adds a choice of
// no range at all (a dashboard leaving each insight its own).
import { useEffect, useState } from 'preact/hooks';
import { dateRangeProblem } from '../lib/builder';

export const DATE_PRESETS: [string, string][] = [
  ['-24h', 'Last 24 hours'],
  ['-7d', 'Last 7 days'],
  ['-14d', 'Last 14 days'],
  ['-30d', 'Last 30 days'],
  ['-90d', 'Last 90 days'],
  ['-180d', 'Last 180 days'],
  ['all', 'All time'],
];

const dateOnly = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : '');

export function DateRangePicker({ from, to, onChange, name = 'date-range', noneLabel }: {
  from: string | null;
  to: string | null;
  onChange: (from: string | null, to: string | null) => void;
  name?: string;
  noneLabel?: string;
}) {
  const isPreset = !to && DATE_PRESETS.some(([v]) => v === from);
  const isNone = !from && noneLabel !== undefined;
  const [custom, setCustom] = useState(!isPreset && !isNone && !!from);
  const problem = dateRangeProblem(from, to);
  // A new range from outside (a reset, a discard) decides again whether it is a custom one.
  useEffect(() => setCustom(!isPreset && !isNone && !!from), [from, to]);
  return (
    <>
      <label>
        Date range
        <select
          name={name}
          value={custom ? 'custom' : isPreset ? from! : ''}
          onChange={(e) => {
            const value = (e.currentTarget as HTMLSelectElement).value;
            if (value === 'custom') { setCustom(true); return; }
            setCustom(false);
            onChange(value || null, null);
          }}
        >
          {noneLabel !== undefined ? <option value="">{noneLabel}</option> : !isPreset && !custom && <option value="">{from || 'Default'}</option>}
          {DATE_PRESETS.map(([value, label]) => <option value={value}>{label}</option>)}
          <option value="custom">Custom…</option>
        </select>
      </label>
      {custom && (
        <>
          <label>From <input type="date" name={`${name}-from`} value={dateOnly(from)} onChange={(e) => onChange((e.currentTarget as HTMLInputElement).value || null, to)} /></label>
          <label>To <input type="date" name={`${name}-to`} value={dateOnly(to)} min={dateOnly(from) || undefined} aria-invalid={!!problem} onChange={(e) => onChange(from || null, (e.currentTarget as HTMLInputElement).value || null)} /></label>
        </>
      )}
      {custom && problem && <span class="error" role="alert" data-testid={`${name}-problem`}>{problem}</span>}
    </>
  );
}
