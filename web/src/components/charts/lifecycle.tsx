// Lifecycle: new, returning, resurrecting and dormant (negative) as stacked bars.
import { useMemo } from 'preact/hooks';
import { VizFrame } from '../VizFrame';
import { ChartCanvas } from './ChartCanvas';
import { cartesian } from './chartjs';
import { asItems, axisLabels } from './series';
import type { ViewProps } from './trends';

const STATUS_COLORS: Record<string, string> = { new: '#30b26b', returning: '#1d4aff', resurrecting: '#9a4de3', dormant: '#f04f58' };
const ORDER = ['new', 'returning', 'resurrecting', 'dormant'];

export function LifecycleView({ source, result, compact, onActors }: ViewProps) {
  const toggled: string[] | undefined = source.lifecycleFilter?.toggledLifecycles;
  // toggledLifecycles only chooses what the chart shows; every status is answered.
  const items = asItems(result)
    .filter((it) => !toggled?.length || toggled.includes(it.status ?? ''))
    .sort((a, b) => ORDER.indexOf(a.status ?? '') - ORDER.indexOf(b.status ?? ''));
  const labels = axisLabels(items);
  const names = items.map((it) => it.status ?? it.label ?? 'status');
  const pick = (d: number, i: number) => {
    const item = items[d];
    if (item && onActors) onActors({ title: `${names[d]} on ${labels[i]}`, params: { status: item.status, day: item.days?.[i] } });
  };
  const config = useMemo(() => cartesian({
    type: 'bar', labels, stacked: true, compact,
    series: items.map((it, i) => ({ label: names[i]!, data: it.data ?? [], color: STATUS_COLORS[it.status ?? ''] ?? '#999' })),
    onPick: onActors ? pick : undefined,
  }), [result, compact, toggled?.join()]);
  if (items.length === 0) return <p class="empty">No data for this range.</p>;
  return (
    <VizFrame
      chart={<ChartCanvas config={config} height={compact ? 200 : 320} label="Lifecycle chart" />}
      legend={items.map((it, i) => ({ label: names[i]!, value: it.count ?? null, color: STATUS_COLORS[it.status ?? ''], key: it.status }))}
      table={{
        columns: ['Status', 'Total', ...labels],
        rows: items.map((it, i) => [names[i]!, it.count ?? null, ...labels.map((_, k) => it.data?.[k] ?? null)]),
        keys: items.map((it) => it.status ?? ''),
      }}
      caption="Lifecycle data"
    />
  );
}
