// What only one kind asks for: a funnel's conversion window and order, retention's start and
// return events, the event types and start of paths.
import { Combobox } from '../Combobox';
import { entityOf, nodeOfEntity, seriesLabel } from '../../lib/builder';
import { seriesOptions } from '../../lib/definitions';
import { nodeFor, unseenEvent } from '../../lib/builder';
import type { QueryNode } from '../../types';

const num = (e: Event) => Number((e.currentTarget as HTMLInputElement).value);
const val = (e: Event) => (e.currentTarget as HTMLSelectElement).value;

export function KindSettings({ project, source, onChange }: { project: string; source: QueryNode; onChange: (next: QueryNode) => void }) {
  if (source.kind === 'FunnelsQuery') {
    const f = source.funnelsFilter ?? {};
    const set = (changes: Record<string, unknown>) => onChange({ ...source, funnelsFilter: { ...f, ...changes } });
    return (
      <div class="kind-settings">
        <label>Conversion window
          <span class="inline">
            <input type="number" min={1} name="funnel-window" aria-label="Conversion window" value={f.funnelWindowInterval ?? 14} onChange={(e) => set({ funnelWindowInterval: Math.max(1, num(e) || 1) })} />
            <select aria-label="Conversion window unit" value={f.funnelWindowIntervalUnit ?? 'day'} onChange={(e) => set({ funnelWindowIntervalUnit: val(e) })}>
              {['minute', 'hour', 'day', 'week', 'month'].map((u) => <option value={u}>{u}s</option>)}
            </select>
          </span>
        </label>
        <label>Step order
          <select name="funnel-order" value={f.funnelOrderType ?? 'ordered'} onChange={(e) => set({ funnelOrderType: val(e) })}>
            <option value="ordered">Sequential</option>
            <option value="strict">Strict order</option>
            <option value="unordered">Any order</option>
          </select>
        </label>
      </div>
    );
  }
  if (source.kind === 'RetentionQuery') {
    const f = source.retentionFilter ?? {};
    const set = (changes: Record<string, unknown>) => onChange({ ...source, retentionFilter: { ...f, ...changes } });
    const entity = (name: 'targetEntity' | 'returningEntity', label: string) => {
      const node = nodeOfEntity(f[name]);
      return (
        <label>{label}
          <Combobox label={label} value={seriesLabel(node)} load={seriesOptions(project, true)} onPick={(o) => set({ [name]: entityOf(nodeFor(o)) })} unseen={unseenEvent} />
        </label>
      );
    };
    return (
      <div class="kind-settings">
        {entity('targetEntity', 'Start event')}
        {entity('returningEntity', 'Return event')}
        <label>Cohorts by
          <select name="retention-type" value={f.retentionType ?? 'retention_first_time'} onChange={(e) => set({ retentionType: val(e) })}>
            <option value="retention_first_time">First time</option>
            <option value="retention_recurring">Recurring</option>
          </select>
        </label>
        <label>Intervals
          <input type="number" min={1} max={30} name="total-intervals" value={f.totalIntervals ?? 7} onChange={(e) => set({ totalIntervals: Math.min(30, Math.max(1, num(e) || 1)) })} />
        </label>
      </div>
    );
  }
  if (source.kind === 'PathsQuery') {
    const f = source.pathsFilter ?? {};
    const types: string[] = f.includeEventTypes ?? [];
    const set = (changes: Record<string, unknown>) => onChange({ ...source, pathsFilter: { ...f, ...changes } });
    const toggle = (t: string, on: boolean) => set({ includeEventTypes: on ? [...types, t] : types.filter((x) => x !== t) });
    return (
      <div class="kind-settings">
        <fieldset class="plain">
          <legend>Show</legend>
          {[['$pageview', 'Page views'], ['$screen', 'Screen views'], ['custom_event', 'Custom events']].map(([t, text]) => (
            <label class="check"><input type="checkbox" checked={types.includes(t!)} onChange={(e) => toggle(t!, (e.currentTarget as HTMLInputElement).checked)} /> {text}</label>
          ))}
        </fieldset>
        <label>Starts at
          <input name="path-start" placeholder="any page or event" value={f.startPoint ?? ''} onChange={(e) => set({ startPoint: (e.currentTarget as HTMLInputElement).value.trim() || null })} />
        </label>
        <label>Steps
          <select name="path-steps" value={String(f.stepLimit ?? 5)} onChange={(e) => set({ stepLimit: num(e) })}>
            {[2, 3, 4, 5, 6, 7, 8, 10, 15, 20].map((n) => <option value={String(n)}>{n}</option>)}
          </select>
        </label>
      </div>
    );
  }
  return null;
}
