// One Chart.js chart in a box (a numeric height is given in px: Preact 11 adds no units). The
// chart is created only once the box has a size and resized by
// our own observer (Chart.js's responsive mode is off): a hidden or 0x0 box, as a collapsed
// dashboard tile or a test viewport can be, never reaches a controller, so the sankey cannot crash.
import { useEffect, useRef, useState } from 'preact/hooks';
import { Chart, type ChartConfig } from './chartjs';

export function ChartCanvas({ config, height = 300, label }: { config: ChartConfig; height?: number | string; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState<string | null>(null);

  useEffect(() => {
    const element = box.current;
    const target = canvas.current;
    if (!element || !target) return;
    let chart: Chart | null = null;
    const sync = () => {
      const width = element.clientWidth;
      const tall = element.clientHeight;
      if (width === 0 || tall === 0) return;
      try {
        if (!chart) {
          const base = config.options ?? {};
          chart = new Chart(target, {
            ...config,
            options: {
              ...base,
              responsive: false,
              maintainAspectRatio: false,
              animation: false,
              plugins: { legend: { display: false }, ...(base.plugins ?? {}) },
            },
          } as any);
          chart.resize(width, tall);
        } else if (chart.width !== width || chart.height !== tall) {
          chart.resize(width, tall);
        }
      } catch (error) {
        // A chart that cannot draw must not take the page down: the legend and table still show.
        setFailed((error as Error).message);
      }
    };
    const observer = new ResizeObserver(sync);
    observer.observe(element);
    sync();
    return () => {
      observer.disconnect();
      chart?.destroy();
    };
  }, [config]);

  return (
    <div class="chart-box" ref={box} style={{ height: typeof height === 'number' ? `${height}px` : height }}>
      <canvas ref={canvas} role="img" aria-label={label} />
      {failed && <p class="muted chart-failed">The chart could not be drawn ({failed}); the numbers are in the table below.</p>}
    </div>
  );
}
