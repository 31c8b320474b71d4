// The controls that change an insight's query before re-running it: date range, interval,
// breakdown, compare and display. Each change hands a new source to onChange.
import { useEffect, useState } from 'preact/hooks';
import {
  controlsOf, filterValue, FUNNEL_VIZ, TRENDS_DISPLAYS, withBreakdown, withCompare, withDateRange, withFilterField, withInterval,
  type InsightKind,
} from '../lib/query';
import type { QueryNode } from '../types';

const PRESETS: [string, string][] = [
  ['-24h', 'Last 24 hours'],
  ['-7d', 'Last 7 days'],
  ['-14d', 'Last 14 days'],
  ['-30d', 'Last 30 days'],
  ['-90d', 'Last 90 days'],
  ['-180d', 'Last 180 days'],
  ['all', 'All time'],
];

const INTERVALS = ['hour', 'day', 'week', 'month'];

export function InsightControls({ source, onChange, disabled, noBreakdown }: {
  source: QueryNode;
  onChange: (next: QueryNode) => void;
  disabled?: boolean;
  /** The builder picks the breakdown with its own property picker. */
  noBreakdown?: boolean;
}) {
  const kind = source.kind as InsightKind;
  const show = controlsOf(kind);
  const from: string = source.dateRange?.date_from ?? (kind === 'RetentionQuery' ? '' : '-7d');
  const to: string | null = source.dateRange?.date_to ?? null;
  const isPreset = !to && PRESETS.some(([v]) => v === from);
  const [custom, setCustom] = useState(!isPreset && from !== '');
  const [breakdown, setBreakdown] = useState<string>(source.breakdownFilter?.breakdown ?? '');
  const breakdownType: 'event' | 'person' = source.breakdownFilter?.breakdown_type === 'person' ? 'person' : 'event';
  useEffect(() => setBreakdown(source.breakdownFilter?.breakdown ?? ''), [source.breakdownFilter?.breakdown]);

  const dateOnly = (value: string | null) => (value && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : '');

  return (
    <form class="controls" onSubmit={(e) => { e.preventDefault(); onChange(withBreakdown(source, breakdown, breakdownType)); }} aria-label="Insight controls">
      <fieldset disabled={disabled}>
        <label>
          Date range
          <select
            name="date-range"
            value={custom ? 'custom' : isPreset ? from : ''}
            onChange={(e) => {
              const value = (e.currentTarget as HTMLSelectElement).value;
              if (value === 'custom') { setCustom(true); return; }
              setCustom(false);
              onChange(withDateRange(source, value || null, null));
            }}
          >
            {!isPreset && !custom && <option value="">{from || 'Default'}</option>}
            {PRESETS.map(([value, label]) => <option value={value}>{label}</option>)}
            <option value="custom">Custom…</option>
          </select>
        </label>
        {custom && (
          <>
            <label>From <input type="date" name="date-from" value={dateOnly(from)} onChange={(e) => onChange(withDateRange(source, (e.currentTarget as HTMLInputElement).value || null, to))} /></label>
            <label>To <input type="date" name="date-to" value={dateOnly(to)} onChange={(e) => onChange(withDateRange(source, from || null, (e.currentTarget as HTMLInputElement).value || null))} /></label>
          </>
        )}
        {show.interval && (kind !== 'FunnelsQuery' || filterValue(source, 'funnelVizType') === 'trends') && (
          <label>
            Interval
            <select name="interval" value={source.interval ?? 'day'} onChange={(e) => onChange(withInterval(source, (e.currentTarget as HTMLSelectElement).value))}>
              {INTERVALS.map((i) => <option value={i}>{i}</option>)}
            </select>
          </label>
        )}
        {kind === 'RetentionQuery' && (
          <label>
            Period
            <select name="period" value={filterValue(source, 'period') ?? 'Day'} onChange={(e) => onChange(withFilterField(source, 'period', (e.currentTarget as HTMLSelectElement).value))}>
              {['Hour', 'Day', 'Week', 'Month'].map((p) => <option value={p}>{p}</option>)}
            </select>
          </label>
        )}
        {show.breakdown && !noBreakdown && (
          <span class="breakdown">
            <label>
              Breakdown
              <input name="breakdown" placeholder="property, e.g. $browser" value={breakdown} onInput={(e) => setBreakdown((e.currentTarget as HTMLInputElement).value)} />
            </label>
            <select name="breakdown-type" aria-label="Breakdown property type" value={breakdownType} onChange={(e) => onChange(withBreakdown(source, breakdown, (e.currentTarget as HTMLSelectElement).value as 'event' | 'person'))}>
              <option value="event">event property</option>
              <option value="person">person property</option>
            </select>
            <button type="submit">Apply</button>
          </span>
        )}
        {show.compare && (
          <label class="check">
            <input type="checkbox" name="compare" checked={!!source.compareFilter?.compare} onChange={(e) => onChange(withCompare(source, (e.currentTarget as HTMLInputElement).checked))} />
            Compare to previous period
          </label>
        )}
        {kind === 'TrendsQuery' && (
          <label>
            Display
            <select name="display" value={filterValue(source, 'display') ?? 'ActionsLineGraph'} onChange={(e) => onChange(withFilterField(source, 'display', (e.currentTarget as HTMLSelectElement).value))}>
              {TRENDS_DISPLAYS.map(([value, label]) => <option value={value}>{label}</option>)}
            </select>
          </label>
        )}
        {kind === 'FunnelsQuery' && (
          <>
            <label>
              Graph
              <select name="funnel-viz" value={filterValue(source, 'funnelVizType') ?? 'steps'} onChange={(e) => onChange(withFilterField(source, 'funnelVizType', (e.currentTarget as HTMLSelectElement).value))}>
                {FUNNEL_VIZ.map(([value, label]) => <option value={value}>{label}</option>)}
              </select>
            </label>
            {(filterValue(source, 'funnelVizType') ?? 'steps') === 'steps' && (
              <label>
                Layout
                <select name="funnel-layout" value={filterValue(source, 'layout') ?? 'vertical'} onChange={(e) => onChange(withFilterField(source, 'layout', (e.currentTarget as HTMLSelectElement).value))}>
                  <option value="vertical">Left to right</option>
                  <option value="horizontal">Top to bottom</option>
                </select>
              </label>
            )}
          </>
        )}
      </fieldset>
    </form>
  );
}
