// A Chart.js plugin of Hoglet's: a dashed line up from the x axis at each annotated bucket, and
// the x positions of every bucket handed to the strip of badges drawn under the axis; a click on
// a date label opens that date's annotations.
import type { Chart, Plugin } from 'chart.js';

export interface AnnotationMarks {
  /** Bucket indexes with annotations; read at each draw. */
  marked: Set<number>;
  /** Told the canvas x of each bucket, and the chart area's left and right, after each layout. */
  onLayout: (xs: number[], left: number, right: number) => void;
  /** A click on a date under the chart (the x axis labels): the bucket's index. */
  onDate: (index: number) => void;
  chart: Chart | null;
}

export function annotationMarksPlugin(marks: AnnotationMarks): Plugin {
  let lastKey = '';
  return {
    id: 'hogletAnnotationMarks',
    afterInit(chart) {
      marks.chart = chart;
    },
    afterDraw(chart) {
      const scale = chart.scales.x;
      if (!scale) return;
      const count = chart.data.labels?.length ?? 0;
      const xs = Array.from({ length: count }, (_, i) => scale.getPixelForValue(i));
      const key = `${xs.join(',')}|${chart.chartArea.left}|${chart.chartArea.right}`;
      if (key !== lastKey) {
        lastKey = key;
        // After this draw: the strip's state change must not run inside Chart.js's render.
        queueMicrotask(() => marks.onLayout(xs, chart.chartArea.left, chart.chartArea.right));
      }
      const { ctx, chartArea } = chart;
      ctx.save();
      ctx.strokeStyle = 'rgba(245, 78, 0, 0.55)';
      ctx.lineWidth = 1;
      ctx.setLineDash([3, 3]);
      for (const index of marks.marked) {
        const x = xs[index];
        if (x === undefined) continue;
        ctx.beginPath();
        ctx.moveTo(x, chartArea.top);
        ctx.lineTo(x, chartArea.bottom);
        ctx.stroke();
      }
      ctx.restore();
    },
    afterEvent(chart, args) {
      const event = args.event;
      const scale = chart.scales.x;
      if (event.type !== 'click' || !scale || event.x === null || event.y === null) return;
      if (event.y <= chart.chartArea.bottom || event.x < chart.chartArea.left - 20 || event.x > chart.chartArea.right + 20) return;
      const count = chart.data.labels?.length ?? 0;
      let nearest = -1;
      for (let i = 0; i < count; i++) {
        if (nearest < 0 || Math.abs(scale.getPixelForValue(i) - event.x) < Math.abs(scale.getPixelForValue(nearest) - event.x)) nearest = i;
      }
      if (nearest >= 0) queueMicrotask(() => marks.onDate(nearest));
    },
    beforeDestroy() {
      marks.chart = null;
    },
  };
}
