// Breakdown by one event or person property (PostHog's breakdownFilter).
import { useState } from 'preact/hooks';
import { Combobox } from '../Combobox';
import { propertyOptions } from '../../lib/definitions';
import type { QueryNode } from '../../types';

export function BreakdownPicker({ project, source, onChange }: { project: string; source: QueryNode; onChange: (next: QueryNode) => void }) {
  const breakdown: string = source.breakdownFilter?.breakdown ?? '';
  // Kept here: choosing the type before the property leaves no breakdownFilter to hold it.
  const [type, setType] = useState<'event' | 'person'>(source.breakdownFilter?.breakdown_type === 'person' ? 'person' : 'event');
  const set = (key: string, t: 'event' | 'person') => {
    const next = { ...source };
    if (key) next.breakdownFilter = { ...(source.breakdownFilter ?? {}), breakdown: key, breakdown_type: t };
    else delete next.breakdownFilter;
    onChange(next);
  };
  return (
    <div class="breakdown-picker" role="group" aria-label="Breakdown">
      <select aria-label="Breakdown property type" value={type} onChange={(e) => { const t = (e.currentTarget as HTMLSelectElement).value as 'event' | 'person'; setType(t); if (breakdown) set('', t); }}>
        <option value="event">Event property</option>
        <option value="person">Person property</option>
      </select>
      <Combobox label="Breakdown property" placeholder="none" value={breakdown} load={propertyOptions(project, type)} onPick={(o) => set(o.value, type)} free />
      {breakdown && <button type="button" class="icon-button" aria-label="Remove breakdown" onClick={() => set('', type)}>✕</button>}
    </div>
  );
}
