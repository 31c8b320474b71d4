// Chart.js with only what the app draws registered, so the bundle leaves the rest out.
import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  LinearScale,
  LineController,
  LineElement,
  PieController,
  PointElement,
  Tooltip,
} from 'chart.js';
import { Flow, SankeyController } from 'chartjs-chart-sankey';

Chart.register(
  LineController,
  BarController,
  PieController,
  SankeyController,
  LineElement,
  PointElement,
  BarElement,
  ArcElement,
  Flow,
  CategoryScale,
  LinearScale,
  Filler,
  Tooltip,
);
Chart.defaults.font.family = getComputedStyle(document.documentElement).fontFamily || 'system-ui, sans-serif';
Chart.defaults.color = '#4b5563';
Chart.defaults.borderColor = '#e5e7eb';

export { Chart };

/** Chart configurations stay loose: the sankey plugin's types and Chart.js's do not line up. */
export type ChartConfig = { type: string; data: any; options?: any };

/** Called with (series/dataset index, point/bar index) when a data element is clicked. */
export type PointPick = (datasetIndex: number, index: number) => void;

export interface SeriesSpec {
  label: string;
  data: (number | null)[];
  color: string;
  dashed?: boolean;
  fill?: boolean;
}

/** A line or bar chart over category labels, the shape most insight kinds share. */
export function cartesian(options: {
  type: 'line' | 'bar';
  labels: string[];
  series: SeriesSpec[];
  stacked?: boolean;
  horizontal?: boolean;
  percent?: boolean;
  onPick?: PointPick;
  compact?: boolean;
}): ChartConfig {
  const { type, labels, series, stacked, horizontal, percent, onPick, compact } = options;
  const valueAxis = {
    stacked: !!stacked,
    beginAtZero: true,
    ticks: { precision: 0, ...(percent ? { callback: (v: number | string) => `${v}%` } : {}) },
    ...(percent ? { max: 100 } : {}),
  };
  const categoryAxis = { stacked: !!stacked, grid: { display: false }, ticks: { autoSkip: true, maxRotation: 0 } };
  return {
    type,
    data: {
      labels,
      datasets: series.map((s) => ({
        label: s.label,
        data: s.data,
        borderColor: s.color,
        backgroundColor: type === 'bar' ? s.color : s.fill ? `${s.color}33` : s.color,
        borderDash: s.dashed ? [6, 4] : undefined,
        fill: s.fill ? (stacked ? 'stack' : 'origin') : false,
        pointRadius: compact ? 0 : 2,
        pointHoverRadius: 5,
        borderWidth: type === 'line' ? 2 : 0,
        tension: 0,
        maxBarThickness: 48,
      })),
    },
    options: {
      indexAxis: horizontal ? 'y' : 'x',
      interaction: type === 'line' ? { mode: 'nearest', intersect: false, axis: 'x' } : { mode: 'nearest', intersect: true },
      scales: horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
      onClick: pickHandler(onPick),
      onHover: hoverCursor(onPick),
    },
  };
}

export function pickHandler(onPick?: PointPick) {
  return (_event: unknown, elements: { datasetIndex: number; index: number }[]) => {
    const element = elements[0];
    if (element && onPick) onPick(element.datasetIndex, element.index);
  };
}

export function hoverCursor(onPick?: PointPick) {
  return (event: { native?: Event | null }, elements: unknown[]) => {
    const target = event.native?.target as HTMLElement | undefined;
    if (target) target.style.cursor = onPick && elements.length ? 'pointer' : 'default';
  };
}
