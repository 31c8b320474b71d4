// Stickiness: actors by the number of intervals they were active in, as grouped bars.
import { useMemo } from 'preact/hooks';
import { color } from '../../lib/format';
import { VizFrame } from '../VizFrame';
import { ChartCanvas } from './ChartCanvas';
import { cartesian } from './chartjs';
import { asItems, axisLabels, seriesName } from './series';
import type { ViewProps } from './trends';

export function StickinessView({ result, compact, onActors }: ViewProps) {
  const items = asItems(result);
  const labels = axisLabels(items);
  const names = items.map(seriesName);
  const pick = (d: number, i: number) => {
    const item = items[d];
    if (!item || !onActors) return;
    const params: Record<string, unknown> = { day: item.days?.[i] ?? i + 1, series: item.action?.order ?? d };
    if (item.compare_label === 'previous') params.compare = 'previous';
    onActors({ title: `${names[d]}: ${labels[i] ?? i + 1}`, params });
  };
  const config = useMemo(() => cartesian({
    type: 'bar', labels, compact,
    series: items.map((it, i) => ({ label: names[i]!, data: it.data ?? [], color: color(i) })),
    onPick: onActors ? pick : undefined,
  }), [result, compact]);
  if (items.length === 0) return <p class="empty">No data for this range.</p>;
  return (
    <VizFrame
      chart={<ChartCanvas config={config} height={compact ? 200 : 320} label="Stickiness chart" />}
      legend={items.map((it, i) => ({ label: names[i]!, value: it.count ?? null, color: color(i), key: names[i] }))}
      table={{
        columns: ['Series', 'Total', ...labels],
        rows: items.map((it, i) => [names[i]!, it.count ?? null, ...labels.map((_, k) => it.data?.[k] ?? null)]),
        keys: names,
      }}
      caption="Stickiness data"
    />
  );
}
