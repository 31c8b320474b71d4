// One property condition of a condition set: a person (or group) property with the app's property
// and value pickers, a cohort picked from the project's cohorts with in / not in, or a condition
// this form does not edit (a flag dependency...), shown and kept as saved.
import { Combobox } from '../Combobox';
import { ValueChips } from '../ValueChips';
import { propertyOptions, valueOptions } from '../../lib/definitions';
import { OPERATORS, takesList, takesValue, valueFor, valuesOf, type Operator, type PropertyFilter } from '../../lib/filters';
import { cohortOptions, describeProperty, groupPropertyOptions, groupValueOptions, type FlagProperty } from '../../lib/flags';

/** The app's operators plus the date ones flags evaluate. */
const FLAG_OPERATORS: [string, string][] = [
  ...OPERATORS,
  ['is_date_before', '< before date'],
  ['is_date_after', '> after date'],
];

export function FlagPropertyRow({ project, label, property, cohortName, onChange, onRemove }: {
  project: string;
  /** "Set 1 condition 2": the start of every control's accessible name. */
  label: string;
  property: FlagProperty;
  cohortName: (id: string) => string | undefined;
  onChange: (next: FlagProperty) => void;
  onRemove: () => void;
}) {
  const remove = <button type="button" class="icon-button" aria-label={`Remove ${label}`} onClick={onRemove}>✕</button>;

  if (property.type === 'cohort') {
    const id = property.value === undefined || property.value === null || property.value === '' ? '' : String(property.value);
    return (
      <div class="filter-row" data-testid="flag-condition" data-type="cohort">
        <select aria-label={`${label} cohort operator`} value={property.operator ?? 'in'} onChange={(e) => onChange({ ...property, operator: (e.currentTarget as HTMLSelectElement).value })}>
          <option value="in">in cohort</option>
          <option value="not_in">not in cohort</option>
        </select>
        <Combobox
          label={`${label} cohort`}
          placeholder="cohort"
          value={id ? cohortName(id) ?? `Cohort ${id}` : ''}
          load={cohortOptions(project)}
          onPick={(o) => onChange({ ...property, key: 'id', value: Number(o.value) })}
        />
        {remove}
      </div>
    );
  }

  if (property.type !== 'person' && property.type !== 'group') {
    return (
      <div class="filter-row" data-testid="flag-condition" data-type={property.type}>
        <code>{describeProperty(property)}</code>
        {remove}
      </div>
    );
  }

  // Person and group properties share the property filter rules of the insight filters.
  const operator = (property.operator ?? 'exact') as Operator;
  const asFilter = { ...property, operator } as unknown as PropertyFilter;
  const values = valuesOf(asFilter);
  const setValues = (next: string[]) => onChange({ ...property, operator, value: valueFor(operator, next) });
  const groupIndex = property.type === 'group' ? Number(property.group_type_index ?? 0) : null;
  const keys = groupIndex === null ? propertyOptions(project, 'person') : groupPropertyOptions(project, groupIndex);
  const suggestions = groupIndex === null ? valueOptions(project, 'person', property.key) : groupValueOptions(project, groupIndex, property.key);
  const list = takesValue(operator) && takesList(operator);
  return (
    <div class="filter-row" data-testid="flag-condition" data-type={property.type}>
      <Combobox label={`${label} property`} placeholder="property" value={property.key} load={keys} free
        onPick={(o) => onChange({ ...property, key: o.value, operator, value: valueFor(operator, []) })} />
      <select aria-label={`${label} operator`} value={operator} onChange={(e) => {
        const next = (e.currentTarget as HTMLSelectElement).value as Operator;
        const changed: FlagProperty = { ...property, operator: next, value: valueFor(next, values) };
        if (changed.value === undefined) delete changed.value;
        onChange(changed);
      }}>
        {FLAG_OPERATORS.map(([op, text]) => <option value={op}>{text}</option>)}
        {!FLAG_OPERATORS.some(([op]) => op === operator) && <option value={operator}>{operator}</option>}
      </select>
      {list && (
        <ValueChips label={label} values={values} setValues={setValues} load={suggestions} />
      )}
      {takesValue(operator) && !list && (
        <Combobox label={`${label} value`} placeholder={operator.startsWith('is_date') ? 'YYYY-MM-DD or -7d' : 'value'} value={values[0] ?? ''} free load={suggestions}
          onPick={(o) => setValues([o.value])} />
      )}
      {remove}
    </div>
  );
}

/** Only conditions the server can evaluate: person / group ones need a key and, mostly, a value. */
export function completeProperty(p: FlagProperty): boolean {
  if (p.type === 'cohort') return p.value !== undefined && p.value !== null && p.value !== '';
  if (p.type !== 'person' && p.type !== 'group') return true;
  const operator = (p.operator ?? 'exact') as Operator;
  return Boolean(p.key) && (!takesValue(operator) || valuesOf({ ...p, operator } as unknown as PropertyFilter).length > 0);
}
