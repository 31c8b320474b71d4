// A list of property filters: event or person property, operator, and values picked from the
// values seen (or typed). Incomplete rows stay on screen; callers send only complete() ones.
import { Combobox } from './Combobox';
import { ValueChips } from './ValueChips';
import { propertyOptions, valueOptions } from '../lib/definitions';
import { isEditable, OPERATORS, operatorLabel, takesList, takesValue, valueFor, valuesOf, withOperator, type FilterType, type Operator, type PropertyFilter } from '../lib/filters';

export function PropertyFilters({ project, filters, onChange, eventName, addLabel = 'Add filter', label = 'Filters' }: {
  project: string;
  /** null: filters grouped with OR, which this list cannot show without changing them. */
  filters: PropertyFilter[] | null;
  onChange: (next: PropertyFilter[]) => void;
  /** Narrows value suggestions to one event's values. */
  eventName?: string | null;
  addLabel?: string;
  label?: string;
}) {
  if (filters === null) return <p class="muted">These filters are grouped with OR; they are kept as saved.</p>;
  const set = (i: number, filter: PropertyFilter) => onChange(filters.map((f, k) => (k === i ? filter : f)));
  const remove = (i: number) => onChange(filters.filter((_, k) => k !== i));
  return (
    <div class="property-filters" role="group" aria-label={label}>
      {filters.map((filter, i) => (
        <FilterRow key={i} index={i} project={project} filter={filter} eventName={eventName} onChange={(f) => set(i, f)} onRemove={() => remove(i)} />
      ))}
      <button type="button" class="link-button" onClick={() => onChange([...filters, { key: '', operator: 'exact', type: 'event', value: [] }])}>+ {addLabel}</button>
    </div>
  );
}

function FilterRow({ index, project, filter, eventName, onChange, onRemove }: {
  index: number;
  project: string;
  filter: PropertyFilter;
  eventName?: string | null;
  onChange: (next: PropertyFilter) => void;
  onRemove: () => void;
}) {
  const values = valuesOf(filter);
  const n = index + 1;
  if (!isEditable(filter)) {
    // Cohort, HogQL and group filters are shown and kept, not edited.
    return (
      <div class="filter-row" data-testid="filter-row">
        <code>{filter.type}: {filter.key}{filter.operator ? ` ${filter.operator}` : ''}{values.length ? ` ${values.join(', ')}` : ''}</code>
        <button type="button" class="icon-button" aria-label={`Remove filter ${n}`} onClick={onRemove}>✕</button>
      </div>
    );
  }
  const setValues = (next: string[]) => onChange({ ...filter, value: valueFor(filter.operator, next) });
  return (
    <div class="filter-row" data-testid="filter-row">
      <select aria-label={`Filter ${n} property type`} value={filter.type} onChange={(e) => onChange({ key: '', operator: filter.operator, type: (e.currentTarget as HTMLSelectElement).value as FilterType, value: takesList(filter.operator) ? [] : undefined })}>
        <option value="event">Event</option>
        <option value="person">Person</option>
      </select>
      <Combobox
        label={`Filter ${n} property`}
        placeholder="property"
        value={filter.key}
        load={propertyOptions(project, filter.type)}
        onPick={(o) => onChange({ ...filter, key: o.value, value: valueFor(filter.operator, []) })}
        free
      />
      <select aria-label={`Filter ${n} operator`} value={filter.operator} onChange={(e) => onChange(withOperator(filter, (e.currentTarget as HTMLSelectElement).value as Operator))}>
        {OPERATORS.map(([op, text]) => <option value={op}>{text}</option>)}
        {/* A saved operator this list does not offer (between, is_cleaned_path_exact...) is kept as is. */}
        {!OPERATORS.some(([op]) => op === filter.operator) && <option value={filter.operator}>{operatorLabel(filter.operator)}</option>}
      </select>
      {takesValue(filter.operator) && takesList(filter.operator) && (
        <ValueChips label={`Filter ${n}`} values={values} setValues={setValues}
          load={valueOptions(project, filter.type, filter.key, filter.type === 'event' ? eventName : null)} />
      )}
      {takesValue(filter.operator) && !takesList(filter.operator) && (
        <Combobox
          label={`Filter ${n} value`}
          placeholder="value"
          value={values[0] ?? ''}
          free
          load={valueOptions(project, filter.type, filter.key, filter.type === 'event' ? eventName : null)}
          onPick={(o) => setValues([o.value])}
        />
      )}
      <button type="button" class="icon-button" aria-label={`Remove filter ${n}`} onClick={onRemove}>✕</button>
    </div>
  );
}
