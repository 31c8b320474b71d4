// Trends: line, area, bar, stacked bar, total-value bar, pie, number, table and world map displays.
import { useMemo } from 'preact/hooks';
import { color, num } from '../../lib/format';
import { TOTAL_DISPLAYS } from '../../lib/query';
import type { ActorTarget, QueryNode } from '../../types';
import type { TableModel } from '../DataTable';
import { DataTable } from '../DataTable';
import { VizFrame } from '../VizFrame';
import { AnnotatedChart } from '../annotations/AnnotatedChart';
import { ChartCanvas } from './ChartCanvas';
import { cartesian, hoverCursor, pickHandler, type ChartConfig } from './chartjs';
import { asItems, axisLabels, seriesName, type SeriesItem } from './series';
import { WorldMapTable } from './worldmap';

export interface ViewProps {
  source: QueryNode;
  result: unknown;
  compact?: boolean;
  onActors?: (target: ActorTarget) => void;
}

/** The actors behind one point: PostHog's InsightActorsQuery fields for trends. */
function target(item: SeriesItem, index: number, fallbackSeries: number, totals: boolean): ActorTarget {
  const params: Record<string, unknown> = { series: item.action?.order ?? fallbackSeries };
  if (!totals) params.day = item.days?.[index];
  if (item.breakdown_value !== undefined && item.breakdown_value !== null) params.breakdown = item.breakdown_value;
  if (item.compare_label) params.compare = item.compare_label;
  const when = totals ? '' : ` on ${item.labels?.[index] ?? item.days?.[index]}`;
  return { title: `${seriesName(item)}${when}`, params };
}

export function TrendsView({ source, result, compact, onActors }: ViewProps) {
  const display: string = source.trendsFilter?.display ?? 'ActionsLineGraph';
  const items = asItems(result);
  const totals = TOTAL_DISPLAYS.has(display);
  const labels = axisLabels(items);
  const names = items.map(seriesName);
  const pick = (d: number, i: number) => { const item = items[d]; if (item && onActors) onActors(target(item, i, d, totals)); };

  const legend = items.map((item, i) => ({
    label: names[i]!,
    value: totals ? item.aggregated_value ?? null : item.count ?? null,
    color: color(i),
    key: names[i],
  }));

  const table: TableModel = totals
    ? { columns: ['Series', 'Total'], rows: items.map((item, i) => [names[i]!, item.aggregated_value ?? null]), keys: names }
    : {
        columns: ['Series', 'Total', ...labels],
        rows: items.map((item, i) => [names[i]!, item.count ?? null, ...labels.map((_, k) => item.data?.[k] ?? null)]),
        keys: names,
        cellsFrom: 2,
      };

  const config = useMemo<ChartConfig | null>(() => {
    if (display === 'BoldNumber' || display === 'ActionsTable' || display === 'WorldMap') return null;
    if (display === 'ActionsPie') {
      return {
        type: 'pie',
        data: { labels: names, datasets: [{ data: items.map((it) => it.aggregated_value ?? 0), backgroundColor: items.map((_, i) => color(i)), borderWidth: 1 }] },
        // A pie has one dataset; its slices are the series.
        options: { onClick: pickHandler(onActors ? (_d, i) => pick(i, 0) : undefined), onHover: hoverCursor(onActors ? pick : undefined) },
      };
    }
    if (display === 'ActionsBarValue') {
      return cartesian({
        type: 'bar', horizontal: true, labels: names, compact,
        series: [{ label: 'Total', data: items.map((it) => it.aggregated_value ?? 0), color: color(0) }],
        onPick: onActors ? (_d, i) => pick(i, 0) : undefined,
      });
    }
    const bar = display === 'ActionsBar' || display === 'ActionsStackedBar' || display === 'ActionsUnstackedBar';
    return cartesian({
      type: bar ? 'bar' : 'line',
      labels,
      stacked: display === 'ActionsStackedBar' || display === 'ActionsAreaGraph',
      compact,
      series: items.map((item, i) => ({
        label: names[i]!,
        data: item.data ?? [],
        color: color(i),
        dashed: item.compare_label === 'previous',
        fill: display === 'ActionsAreaGraph',
      })),
      onPick: onActors ? pick : undefined,
    });
  }, [result, display, compact]);

  if (items.length === 0) return <p class="empty">No data for this range.</p>;
  // Annotations mark dates, so only charts over time carry them.
  const timeAxis = !totals && display !== 'ActionsPie' && display !== 'BoldNumber' && display !== 'ActionsTable' && display !== 'WorldMap';
  const days = items.find((item) => (item.days?.length ?? 0) === labels.length)?.days ?? [];
  const worldMap = display === 'WorldMap';
  const chart = display === 'BoldNumber'
    ? <BoldNumber items={items} names={names} />
    : worldMap
      ? <WorldMapTable items={items} onPick={onActors ? (r) => pick(r, 0) : undefined} />
      : display === 'ActionsTable'
      ? <DataTable model={table} caption="Totals" testId="trends-table" onRowClick={onActors ? (r) => pick(r, 0) : undefined} />
        : timeAxis
          ? <AnnotatedChart config={config!} days={days} labels={labels} height={compact ? 200 : 320} label={`Trends chart (${display})`} />
          : <ChartCanvas config={config!} height={compact ? 200 : 320} label={`Trends chart (${display})`} />;
  return (
    <VizFrame
      chart={chart}
      legend={worldMap ? [] : legend}
      table={table}
      caption="Trends data"
      note={worldMap ? "Countries come from each event's $geoip_country_code, which capture looks up from the client's IP address." : undefined}
      onRow={onActors && totals ? (r) => pick(r, 0) : undefined}
      // A day's cell opens the people counted in it, as a click on the chart's point does.
      onCell={onActors && !totals ? (r, c) => pick(r, c - 2) : undefined}
      onLegend={onActors && totals ? (r) => pick(r, 0) : undefined}
    />
  );
}

function BoldNumber({ items, names }: { items: SeriesItem[]; names: string[] }) {
  const current = items.find((it) => it.compare_label !== 'previous') ?? items[0]!;
  const previous = items.find((it) => it.compare_label === 'previous');
  const value = current.aggregated_value ?? current.count ?? 0;
  const before = previous?.aggregated_value ?? previous?.count;
  const change = before ? ((value - before) / before) * 100 : null;
  return (
    <div class="bold-number" data-testid="bold-number">
      <div class="bold-value" data-value={String(value)}>{num(value)}</div>
      <div class="muted">{names[items.indexOf(current)]}</div>
      {before !== undefined && (
        <div class="muted">
          {change === null ? `previous period: ${num(before)}` : `${change >= 0 ? '▲' : '▼'} ${Math.abs(Math.round(change * 10) / 10)}% from ${num(before)}`}
        </div>
      )}
    </div>
  );
}
