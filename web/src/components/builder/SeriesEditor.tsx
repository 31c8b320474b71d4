// The series of a trends, stickiness or lifecycle query, or the steps of a funnel: an event or
// action each, a math (trends), and the series' own property filters.
import { Combobox } from '../Combobox';
import { PropertyFilters } from '../PropertyFilters';
import { MATHS, nodeFor, PROPERTY_MATHS, seriesLabel, unseenEvent } from '../../lib/builder';
import { propertyOptions, seriesOptions } from '../../lib/definitions';
import { readFilters } from '../../lib/filters';
import type { QueryNode } from '../../types';

export function SeriesEditor({ project, kind, series, onChange }: {
  project: string;
  kind: string;
  series: QueryNode[];
  onChange: (next: QueryNode[]) => void;
}) {
  const funnel = kind === 'FunnelsQuery';
  const single = kind === 'LifecycleQuery';
  const noun = funnel ? 'Step' : 'Series';
  const set = (i: number, node: QueryNode) => onChange(series.map((s, k) => (k === i ? node : s)));
  return (
    <ol class="series-list" aria-label={funnel ? 'Steps' : 'Series'}>
      {series.map((node, i) => {
        const filters = readFilters(node.properties);
        return (
          <li class="series-row" data-testid={`series-${i}`} key={i}>
            <div class="series-main">
              <span class="badge" aria-hidden="true">{funnel ? i + 1 : String.fromCharCode(65 + (i % 26))}</span>
              <Combobox
                label={`${noun} ${i + 1} event`}
                value={seriesLabel(node)}
                load={seriesOptions(project, !funnel)}
                onPick={(o) => set(i, nodeFor(o, node))}
                unseen={unseenEvent}
              />
              {kind === 'TrendsQuery' && (
                <select aria-label={`${noun} ${i + 1} math`} value={node.math ?? 'total'} onChange={(e) => set(i, { ...node, math: (e.currentTarget as HTMLSelectElement).value })}>
                  {MATHS.map(([value, text]) => <option value={value}>{text}</option>)}
                </select>
              )}
              {kind === 'TrendsQuery' && PROPERTY_MATHS.has(node.math) && (
                <Combobox
                  label={`${noun} ${i + 1} math property`}
                  placeholder="numeric property"
                  value={node.math_property ?? ''}
                  load={propertyOptions(project, 'event')}
                  onPick={(o) => set(i, { ...node, math_property: o.value })}
                  free
                />
              )}
              {!single && series.length > 1 && (
                <button type="button" class="icon-button" aria-label={`Remove ${noun.toLowerCase()} ${i + 1}`} onClick={() => onChange(series.filter((_, k) => k !== i))}>✕</button>
              )}
            </div>
            <PropertyFilters
              project={project}
              label={`${noun} ${i + 1} filters`}
              filters={filters}
              eventName={node.kind === 'EventsNode' ? node.event : null}
              onChange={(next) => set(i, { ...node, properties: next })}
            />
          </li>
        );
      })}
      {!single && (
        <li>
          <button type="button" onClick={() => onChange([...series, { kind: 'EventsNode', event: '$pageview', name: '$pageview' }])}>+ Add {noun.toLowerCase()}</button>
        </li>
      )}
    </ol>
  );
}
