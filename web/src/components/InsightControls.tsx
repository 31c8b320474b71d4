// The controls that change an insight's query before re-running it: date range, interval,
// breakdown, compare and display. Each change hands a new source to onChange.
import { useEffect, useState } from 'preact/hooks';
import {
  controlsOf, filterValue, FUNNEL_VIZ, TRENDS_DISPLAYS, withBreakdown, withCompare, withDateRange, withDisplay, withFilterField, withInterval,
  type InsightKind,
} from '../lib/query';
import type { QueryNode } from '../types';
import { DateRangePicker } from './DateRangePicker';

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
  const [breakdown, setBreakdown] = useState<string>(source.breakdownFilter?.breakdown ?? '');
  const breakdownType: 'event' | 'person' = source.breakdownFilter?.breakdown_type === 'person' ? 'person' : 'event';
  useEffect(() => setBreakdown(source.breakdownFilter?.breakdown ?? ''), [source.breakdownFilter?.breakdown]);

  return (
    <form class="controls" onSubmit={(e) => { e.preventDefault(); onChange(withBreakdown(source, breakdown, breakdownType)); }} aria-label="Insight controls">
      <fieldset disabled={disabled}>
        <DateRangePicker from={from || null} to={to} onChange={(f, t) => onChange(withDateRange(source, f, t))} />
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
            <select name="display" value={filterValue(source, 'display') ?? 'ActionsLineGraph'} onChange={(e) => onChange(withDisplay(source, (e.currentTarget as HTMLSelectElement).value))}>
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
