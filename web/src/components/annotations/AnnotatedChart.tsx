// A time-axis chart with its annotations: the plugin draws a dashed line at each annotated bucket,
// and a strip under the x axis holds a badge per annotated bucket (hover: what, who, when; click:
// edit or delete) and, on hover, a "+" under every other bucket to annotate that date.
import { useContext, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ChartCanvas } from '../charts/ChartCanvas';
import type { ChartConfig } from '../charts/chartjs';
import { AnnotationForm, AnnotationList, describe } from './AnnotationPopover';
import { AnnotationsContext } from './context';
import { annotationMarksPlugin, type AnnotationMarks } from './plugin';
import { byBucket, loadAnnotations, onAnnotationsChanged, type Annotation } from './store';

export interface AnnotatedChartProps {
  config: ChartConfig;
  /** Each bucket's start, as the query answered it (days[i] is the bucket of labels[i]). */
  days: (string | number)[];
  labels: string[];
  height: number;
  label: string;
}

export function AnnotatedChart(props: AnnotatedChartProps) {
  const place = useContext(AnnotationsContext);
  if (!place) return <ChartCanvas config={props.config} height={props.height} label={props.label} />;
  return <WithAnnotations {...props} />;
}

/** Fixed just under a button, centred on it and kept inside the window. */
function below(at: DOMRect, width: number) {
  const left = Math.max(8, Math.min(innerWidth - width - 8, at.left + at.width / 2 - width / 2));
  return { position: 'fixed', left: `${left}px`, top: `${at.bottom + 6}px`, width: `${width}px` };
}

function WithAnnotations({ config, days, labels, height, label }: AnnotatedChartProps) {
  const place = useContext(AnnotationsContext)!;
  const [all, setAll] = useState<Annotation[]>([]);
  const [xs, setXs] = useState<number[]>([]);
  // The bucket hovered or opened, with where its button is: the tip and the panel are fixed to
  // the viewport so a dashboard tile's overflow cannot cut them.
  const [hover, setHover] = useState<{ index: number; at: DOMRect } | null>(null);
  const [open, setOpen] = useState<{ index: number; at: DOMRect } | null>(null);
  const strip = useRef<HTMLDivElement>(null);
  const openAt = (index: number) => {
    const button = strip.current?.children[index];
    if (button) setOpen({ index, at: button.getBoundingClientRect() });
  };
  const marks = useRef<AnnotationMarks>({ marked: new Set(), onLayout: (positions) => setXs(positions), onDate: openAt, chart: null });
  const plugin = useMemo(() => annotationMarksPlugin(marks.current), []);
  const withPlugin = useMemo(() => ({ ...config, plugins: [...((config as any).plugins ?? []), plugin] }), [config]);

  useEffect(() => {
    let live = true;
    const load = () => loadAnnotations(place.projectId).then((list) => { if (live) setAll(list); }, () => {});
    load();
    const stop = onAnnotationsChanged(load);
    return () => { live = false; stop(); };
  }, [place.projectId]);

  const buckets = useMemo(() => byBucket(all, place, days), [all, place.insightId, place.dashboardId, days]);
  useEffect(() => {
    marks.current.marked = new Set(buckets.keys());
    marks.current.chart?.draw();
  }, [buckets]);

  const close = () => setOpen(null);
  const dayLabel = (i: number) => labels[i] ?? String(days[i]);
  return (
    <div class="annotated-chart">
      <ChartCanvas config={withPlugin} height={height} label={label} />
      <div class="annotation-strip" data-testid="annotation-strip" ref={strip} onMouseLeave={() => setHover(null)}>
        {xs.map((x, i) => {
          const here = buckets.get(i);
          return (
            <button
              key={i}
              type="button"
              class={here ? 'annotation-badge' : 'annotation-add'}
              style={{ left: `${x}px` }}
              data-testid={here ? 'annotation-badge' : 'annotation-add'}
              data-day={dayLabel(i)}
              aria-label={here ? `${here.length} annotation${here.length === 1 ? '' : 's'} on ${dayLabel(i)}` : `Annotate ${dayLabel(i)}`}
              aria-expanded={open?.index === i}
              onMouseEnter={(e) => setHover(here ? { index: i, at: e.currentTarget.getBoundingClientRect() } : null)}
              onFocus={(e) => setHover(here ? { index: i, at: e.currentTarget.getBoundingClientRect() } : null)}
              onBlur={() => setHover(null)}
              onClick={(e) => { setHover(null); setOpen(open?.index === i ? null : { index: i, at: e.currentTarget.getBoundingClientRect() }); }}
            >
              {here ? here.length : '+'}
            </button>
          );
        })}
        {hover !== null && open === null && buckets.get(hover.index) && (
          <div class="annotation-tip" role="tooltip" data-testid="annotation-tip" style={below(hover.at, 260)}>
            {buckets.get(hover.index)!.map((a) => {
              const { what, who, when } = describe(a);
              return (
                <div key={a.id} class="annotation-tip-item">
                  <strong>{what}</strong>
                  <span class="muted">{who} · {when}</span>
                </div>
              );
            })}
          </div>
        )}
      </div>
      {open !== null && (
        <div class="annotation-panel card" role="dialog" aria-label={`Annotations on ${dayLabel(open.index)}`} data-testid="annotation-panel" style={below(open.at, 360)}>
          <header class="popover-head">
            <h2>{dayLabel(open.index)}</h2>
            <button type="button" class="icon-button" aria-label="Close" onClick={close}>✕</button>
          </header>
          {buckets.get(open.index)
            ? <AnnotationList place={place} annotations={buckets.get(open.index)!} day={days[open.index]!} />
            : <AnnotationForm place={place} day={days[open.index]!} onDone={close} onCancel={close} />}
        </div>
      )}
    </div>
  );
}
