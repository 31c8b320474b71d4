// Funnels: conversion steps (vertical or horizontal bars), conversion trends, time to convert.
import { useMemo } from 'preact/hooks';
import { breakdownLabel, color, duration, pct } from '../../lib/format';
import type { TableModel } from '../DataTable';
import { VizFrame } from '../VizFrame';
import { ChartCanvas } from './ChartCanvas';
import { cartesian } from './chartjs';
import { asItems, axisLabels } from './series';
import type { ViewProps } from './trends';

interface Step {
  name?: string | null;
  custom_name?: string | null;
  order: number;
  count: number;
  average_conversion_time?: number | null;
  median_conversion_time?: number | null;
  breakdown_value?: unknown;
}

const stepName = (step: Step) => step.custom_name || step.name || `Step ${step.order + 1}`;

export function FunnelsView(props: ViewProps) {
  const viz = props.source.funnelsFilter?.funnelVizType ?? 'steps';
  if (viz === 'trends') return <FunnelTrends {...props} />;
  if (viz === 'time_to_convert') return <TimeToConvert {...props} />;
  return <FunnelSteps {...props} />;
}

/** Steps per breakdown group: a list of steps, or a list of lists with a breakdown. */
function groupsOf(result: unknown): { label: string | null; value: unknown; steps: Step[] }[] {
  if (!Array.isArray(result) || result.length === 0) return [];
  if (Array.isArray(result[0])) {
    return (result as Step[][]).filter((g) => g.length > 0).map((steps) => ({ label: breakdownLabel(steps[0]!.breakdown_value), value: steps[0]!.breakdown_value, steps }));
  }
  return [{ label: null, value: undefined, steps: result as Step[] }];
}

function FunnelSteps({ source, result, compact, onActors }: ViewProps) {
  const groups = groupsOf(result);
  const horizontal = source.funnelsFilter?.layout === 'horizontal';
  const names = (groups[0]?.steps ?? []).map((s, i) => `${i + 1}. ${stepName(s)}`);

  const open = (g: number, i: number, dropped = false) => {
    const group = groups[g];
    const step = group?.steps[i];
    if (!group || !step || !onActors) return;
    const base: Record<string, unknown> = group.label === null ? {} : { funnelStepBreakdown: group.value };
    const title = `${names[i]}${group.label === null ? '' : ` · ${group.label}`}`;
    const reached = { title: `${title}: completed`, params: { ...base, funnelStep: i + 1 } };
    // Dropped before step N (N > 1): PostHog's negative funnelStep.
    const drop = { title: `${title}: dropped off`, params: { ...base, funnelStep: -(i + 1) } };
    onActors(dropped && i > 0 ? drop : reached);
  };

  const config = useMemo(() => cartesian({
    type: 'bar',
    labels: names,
    horizontal,
    compact,
    series: groups.map((g, k) => ({ label: g.label ?? 'Persons', data: g.steps.map((s) => s.count), color: color(k) })),
    onPick: onActors ? (d, i) => open(d, i) : undefined,
  }), [result, horizontal, compact]);

  if (groups.length === 0) return <p class="empty">No one entered this funnel in the range.</p>;

  const rows = groups.flatMap((g) => g.steps.map((s, i) => {
    const first = g.steps[0]!.count;
    const previous = i === 0 ? s.count : g.steps[i - 1]!.count;
    return [
      names[i]!,
      ...(g.label === null ? [] : [g.label]),
      s.count,
      { text: pct(first ? (s.count / first) * 100 : 0), value: first ? s.count / first : 0 },
      { text: pct(previous ? (s.count / previous) * 100 : 0), value: previous ? s.count / previous : 0 },
      i === 0 ? 0 : previous - s.count,
      { text: i === 0 ? '–' : duration(s.average_conversion_time), value: s.average_conversion_time ?? null },
      { text: i === 0 ? '–' : duration(s.median_conversion_time), value: s.median_conversion_time ?? null },
    ];
  }));
  const withBreakdown = groups[0]!.label !== null;
  const table: TableModel = {
    columns: ['Step', ...(withBreakdown ? ['Breakdown'] : []), 'Count', 'Conversion', 'From previous step', 'Dropped off', 'Average time', 'Median time'],
    rows,
    keys: groups.flatMap((g) => g.steps.map((_, i) => `${g.label ?? ''}#${i + 1}`)),
  };
  const locate = (row: number) => ({ g: Math.floor(row / names.length), i: row % names.length });
  const legend = withBreakdown
    ? groups.map((g, k) => {
        const last = g.steps[g.steps.length - 1]!.count;
        const first = g.steps[0]!.count;
        return { label: g.label!, value: first, color: color(k), note: `${pct(first ? (last / first) * 100 : 0)} converted` };
      })
    : groups[0]!.steps.map((s, i) => {
        const first = groups[0]!.steps[0]!.count;
        return { label: names[i]!, value: s.count, note: pct(first ? (s.count / first) * 100 : 0), key: `step-${i + 1}` };
      });
  const total = groups[0]!.steps;
  const overall = total[0]!.count ? (total[total.length - 1]!.count / total[0]!.count) * 100 : 0;

  return (
    <VizFrame
      chart={<ChartCanvas config={config} height={compact ? 200 : 320} label="Funnel steps" />}
      note={withBreakdown ? undefined : `Overall conversion ${pct(overall)}`}
      legend={legend}
      table={table}
      caption="Funnel steps"
      onRow={onActors ? (r) => { const { g, i } = locate(r); open(g, i); } : undefined}
      onLegend={onActors && !withBreakdown ? (i) => open(0, i) : undefined}
    />
  );
}

function FunnelTrends({ result, compact }: ViewProps) {
  const items = asItems(result);
  const labels = axisLabels(items);
  const names = items.map((it) => (it.breakdown_value !== undefined && it.breakdown_value !== null ? breakdownLabel(it.breakdown_value) : 'Conversion rate'));
  const config = useMemo(() => cartesian({
    type: 'line', labels, percent: true, compact,
    series: items.map((it, i) => ({ label: names[i]!, data: it.data ?? [], color: color(i) })),
  }), [result, compact]);
  if (items.length === 0) return <p class="empty">No data for this range.</p>;
  const average = (data: number[] = []) => (data.length ? data.reduce((a, b) => a + b, 0) / data.length : 0);
  return (
    <VizFrame
      chart={<ChartCanvas config={config} height={compact ? 200 : 320} label="Funnel conversion trends" />}
      legend={items.map((it, i) => ({ label: names[i]!, value: pct(average(it.data)), note: 'average', color: color(i) }))}
      table={{
        columns: ['Series', ...labels],
        rows: items.map((it, i) => [names[i]!, ...labels.map((_, k) => ({ text: pct(it.data?.[k] ?? 0), value: it.data?.[k] ?? null }))]),
        keys: names,
      }}
      caption="Conversion rate by period (%)"
    />
  );
}

function TimeToConvert({ result, compact }: ViewProps) {
  const data = (Array.isArray(result) ? result[0] : result) as { bins?: [number, number][]; average_conversion_time?: number | null } | null;
  const bins = data?.bins ?? [];
  const labels = bins.map(([seconds]) => duration(seconds));
  const config = useMemo(() => cartesian({
    type: 'bar', labels, compact,
    series: [{ label: 'Conversions', data: bins.map(([, count]) => count), color: color(0) }],
  }), [result, compact]);
  if (bins.length === 0) return <p class="empty">No one converted in this range.</p>;
  const total = bins.reduce((sum, [, count]) => sum + count, 0);
  return (
    <VizFrame
      chart={<ChartCanvas config={config} height={compact ? 200 : 320} label="Time to convert histogram" />}
      legend={[
        { label: 'Conversions', value: total, color: color(0) },
        { label: 'Average time to convert', value: duration(data?.average_conversion_time) },
      ]}
      table={{ columns: ['Time to convert (from)', 'Conversions'], rows: bins.map(([seconds, count], i) => [{ text: labels[i]!, value: seconds }, count]) }}
      caption="Time to convert"
    />
  );
}
