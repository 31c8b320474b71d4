// A HogQL answer drawn as PostHog's SQL visualizations draw it: a line or bar per y column over
// the x column's values, or the first y value as one big number.
import { useMemo } from 'preact/hooks';
import { color, num } from '../../lib/format';
import { cellText, type SqlResult, type SqlViz } from '../../lib/sql';
import { ChartCanvas } from '../charts/ChartCanvas';
import { cartesian, type ChartConfig } from '../charts/chartjs';
import { Legend } from '../Legend';

const asNumber = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

export function SqlChart({ result, viz, compact }: { result: SqlResult; viz: SqlViz; compact?: boolean }) {
  const xi = viz.x === null ? -1 : result.columns.indexOf(viz.x);
  const ys = viz.y.map((c) => result.columns.indexOf(c)).filter((i) => i >= 0);
  const config = useMemo<ChartConfig | null>(() => {
    if (viz.display !== 'ActionsLineGraph' && viz.display !== 'ActionsBar') return null;
    if (xi < 0 || ys.length === 0) return null;
    return cartesian({
      type: viz.display === 'ActionsBar' ? 'bar' : 'line',
      labels: result.results.map((row) => cellText(row[xi])),
      series: ys.map((i, k) => ({ label: result.columns[i]!, data: result.results.map((row) => asNumber(row[i])), color: color(k) })),
      compact,
    });
  }, [result, viz.display, xi, ys.join(',')]);

  if (viz.display === 'BoldNumber') {
    const column = ys[0] ?? 0;
    const value = result.results[0]?.[column];
    return (
      <div class="bold-number" data-testid="sql-number" data-value={cellText(value)}>
        <div class="bold-value">{typeof value === 'number' ? num(value) : cellText(value)}</div>
        <div class="muted">{result.columns[column]}</div>
      </div>
    );
  }
  if (!config) return <p class="muted" role="status">Choose the x and y columns to draw a chart.</p>;
  // Each y column with its total, as a trend's legend shows each series'.
  const legend = ys.map((i, k) => ({
    label: result.columns[i]!,
    value: result.results.reduce<number>((sum, row) => sum + (asNumber(row[i]) ?? 0), 0),
    color: color(k),
    key: result.columns[i],
  }));
  return (
    <div class="sql-chart" data-testid="sql-chart" data-display={viz.display}>
      <ChartCanvas config={config} height={compact ? 180 : 300} label={`${viz.display === 'ActionsBar' ? 'Bar' : 'Line'} chart of ${legend.map((l) => l.label).join(', ')} by ${viz.x}`} />
      <Legend items={legend} />
    </div>
  );
}
