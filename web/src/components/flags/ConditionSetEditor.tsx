// One release condition set: its property conditions (AND'ed), the share of matching users who get
// the flag (0-100), and, for a multivariate flag, an optional variant everyone matching gets.
import type { ConditionSet, FlagProperty } from '../../lib/flags';
import { FlagPropertyRow } from './FlagPropertyRow';

export function ConditionSetEditor({ project, index, set, groupIndex, variantKeys, targetName, cohortName, onChange, onRemove }: {
  project: string;
  index: number;
  set: ConditionSet;
  /** The flag's group type (null: a person flag): which conditions may be added. */
  groupIndex: number | null;
  /** The variants of a multivariate flag (empty: boolean flag, no override). */
  variantKeys: string[];
  targetName: string;
  cohortName: (id: string) => string | undefined;
  onChange: (next: ConditionSet) => void;
  onRemove: (() => void) | null;
}) {
  const n = index + 1;
  const properties = set.properties ?? [];
  const setProperties = (next: FlagProperty[]) => onChange({ ...set, properties: next });
  const rollout = set.rollout_percentage ?? 100;
  const setRollout = (text: string) => {
    const value = Math.max(0, Math.min(100, Number(text)));
    if (text.trim() !== '' && Number.isFinite(value)) onChange({ ...set, rollout_percentage: value });
  };
  const add = (property: FlagProperty) => setProperties([...properties, property]);
  return (
    <fieldset class="condition-set card" data-testid="condition-set" aria-label={`Condition set ${n}`}>
      <legend>Condition set {n}</legend>
      <div class="condition-set-head">
        <span class="muted">{properties.length === 0 ? `All ${targetName}` : `${targetName[0]!.toUpperCase()}${targetName.slice(1)} matching every condition`}</span>
        {onRemove && <button type="button" class="link-button" aria-label={`Remove condition set ${n}`} onClick={onRemove}>Remove set</button>}
      </div>
      <div class="property-filters">
        {properties.map((p, i) => (
          <FlagPropertyRow
            key={i}
            project={project}
            label={`Set ${n} condition ${i + 1}`}
            property={p}
            cohortName={cohortName}
            onChange={(next) => setProperties(properties.map((q, k) => (k === i ? next : q)))}
            onRemove={() => setProperties(properties.filter((_, k) => k !== i))}
          />
        ))}
        <span class="inline">
          {groupIndex === null ? (
            <>
              <button type="button" class="link-button" onClick={() => add({ key: '', type: 'person', operator: 'exact', value: [] })}>+ Add person property</button>
              <button type="button" class="link-button" onClick={() => add({ key: 'id', type: 'cohort', operator: 'in', value: '' })}>+ Add cohort</button>
            </>
          ) : (
            <button type="button" class="link-button" onClick={() => add({ key: '', type: 'group', group_type_index: groupIndex, operator: 'exact', value: [] })}>+ Add group property</button>
          )}
        </span>
      </div>
      <div class="rollout inline">
        <label class="rollout-label" for={`rollout-${n}`}>Roll out to</label>
        <input id={`rollout-${n}`} type="range" min="0" max="100" step="1" aria-label={`Set ${n} rollout slider`} value={rollout}
          onInput={(e) => setRollout((e.currentTarget as HTMLInputElement).value)} />
        <input type="number" min="0" max="100" step="1" class="pct-input" aria-label={`Set ${n} rollout percentage`} value={rollout}
          onInput={(e) => setRollout((e.currentTarget as HTMLInputElement).value)} />
        <span>% of {properties.length === 0 ? `all ${targetName}` : `${targetName} in this set`}</span>
      </div>
      {variantKeys.length > 0 && (
        <label class="inline">
          Variant override
          <select aria-label={`Set ${n} variant override`} value={set.variant ?? ''} onChange={(e) => {
            const v = (e.currentTarget as HTMLSelectElement).value;
            onChange({ ...set, variant: v || null });
          }}>
            <option value="">None (by rollout percentages)</option>
            {variantKeys.map((k) => <option value={k}>{k}</option>)}
            {set.variant && !variantKeys.includes(set.variant) && <option value={set.variant}>{set.variant} (missing)</option>}
          </select>
        </label>
      )}
    </fieldset>
  );
}
