// Paths: a sankey of step-numbered nodes ("1_/", "2_/pricing"), with node totals in the legend.
import { useMemo } from 'preact/hooks';
import { color, duration } from '../../lib/format';
import { fitted, nodeLabel, shortLabel } from '../../lib/paths';
import { VizFrame } from '../VizFrame';
import { ChartCanvas } from './ChartCanvas';
import { hoverCursor, pickHandler } from './chartjs';
import type { ViewProps } from './trends';

interface Edge {
  source: string;
  target: string;
  value: number;
  average_conversion_time?: number | null;
}

const step = (key: string) => Number(/^(\d+)_/.exec(key)?.[1] ?? 0);

export function PathsView({ result, compact, onActors }: ViewProps) {
  const edges = (Array.isArray(result) ? result : []) as Edge[];

  // Each node's people: what flows into it, or out of it for first-step nodes.
  const nodes = useMemo(() => {
    const inflow = new Map<string, number>();
    const outflow = new Map<string, number>();
    for (const e of edges) {
      outflow.set(e.source, (outflow.get(e.source) ?? 0) + e.value);
      inflow.set(e.target, (inflow.get(e.target) ?? 0) + e.value);
    }
    const keys = [...new Set(edges.flatMap((e) => [e.source, e.target]))];
    const sources = (key: string) => edges.filter((e) => e.target === key).map((e) => e.source);
    return keys
      .map((key) => ({ key, label: shortLabel(key, sources(key)), full: nodeLabel(key), step: step(key), value: Math.max(inflow.get(key) ?? 0, outflow.get(key) ?? 0) }))
      .sort((a, b) => a.step - b.step || b.value - a.value || a.key.localeCompare(b.key));
  }, [result]);

  const openEdge = (i: number) => {
    const e = edges[i];
    if (e && onActors) onActors({ title: `${nodeLabel(e.source)} → ${nodeLabel(e.target)}`, params: { pathStartKey: e.source, pathEndKey: e.target } });
  };
  const openNode = (i: number) => {
    const n = nodes[i];
    if (n && onActors) onActors({ title: `Reached ${n.label} (step ${n.step})`, params: n.step === 1 ? { pathStartKey: n.key } : { pathEndKey: n.key } });
  };

  const config = useMemo(() => {
    const colors = new Map(nodes.map((n, i) => [n.key, color(i)]));
    return {
      type: 'sankey',
      data: {
        datasets: [{
          label: 'Paths',
          data: edges.map((e) => ({ from: e.source, to: e.target, flow: e.value })),
          // Whole URLs side by side overlap: the canvas gets the short form, the legend the rest.
          labels: Object.fromEntries(nodes.map((n) => [n.key, fitted(n.label)])),
          // Steps decide the column, so a page seen at step 3 never sits in step 2's column.
          column: Object.fromEntries(nodes.map((n) => [n.key, n.step - 1])),
          colorFrom: (c: any) => colors.get(c.raw?.from) ?? '#999',
          colorTo: (c: any) => colors.get(c.raw?.to) ?? '#999',
          colorMode: 'gradient',
          size: 'max',
          nodeWidth: 10,
          font: { size: compact ? 10 : 12 },
        }],
      },
      options: {
        onClick: pickHandler(onActors ? (_d, i) => openEdge(i) : undefined),
        onHover: hoverCursor(onActors ? openEdge : undefined),
        plugins: { tooltip: { callbacks: { label: (c: any) => `${nodeLabel(c.raw.from)} → ${nodeLabel(c.raw.to)}: ${c.raw.flow}` } } },
      },
    };
  }, [result, compact]);

  if (edges.length === 0) return <p class="empty">No paths in this range.</p>;
  return (
    <VizFrame
      chart={<ChartCanvas config={config} height={compact ? 200 : 420} label="Paths sankey" />}
      legend={nodes.map((n) => ({ label: `${n.step}. ${n.label}`, title: n.full, value: n.value, key: n.key }))}
      onLegend={onActors ? openNode : undefined}
      table={{
        columns: ['From', 'To', 'People', 'Average time'],
        rows: edges.map((e) => [
          { text: `${step(e.source)}. ${nodeLabel(e.source)}`, value: e.source },
          { text: `${step(e.target)}. ${nodeLabel(e.target)}`, value: e.target },
          e.value,
          { text: duration(e.average_conversion_time != null ? e.average_conversion_time / 1000 : null), value: e.average_conversion_time ?? null },
        ]),
        keys: edges.map((e) => `${e.source}→${e.target}`),
      }}
      caption="Path edges"
      onRow={onActors ? openEdge : undefined}
    />
  );
}
