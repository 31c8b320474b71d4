// One criterion of a cohort, in PostHog's words: the row kind, then its fields (event or action
// and window, count, person property with operator and values seen, or another cohort). A problem
// found here or by the API shows beside the field it is about.
import { Combobox } from '../Combobox';
import { ValueChips } from '../ValueChips';
import { propertyOptions, seriesOptions, valueOptions, type Option } from '../../lib/definitions';
import { operatorLabel, takesList, takesValue, valueFor, valuesOf, type Operator } from '../../lib/filters';
import {
  COUNT_OPERATORS, ROW_KINDS, TIME_INTERVALS, isBehaviour, isCohort, isPerson, newCriterion, operatorsFor,
  type Criterion, type RowKind,
} from './criteria';

export interface RowProps {
  project: string;
  /** "Group 1 criterion 2": the prefix of every field's accessible name. */
  name: string;
  criterion: Criterion;
  cohorts: (search: string, signal: AbortSignal) => Promise<Option[]>;
  /** Names of the project's cohorts and actions by id, for criteria read from a saved cohort. */
  names: { cohorts: Map<string, string>; actions: Map<string, string> };
  /** Problems by field (key, value, time_value, operator_value, seq_time_value). */
  problems: (field: string) => string | undefined;
  onChange: (next: Criterion) => void;
  onRemove: () => void;
}

function Problem({ text, id }: { text: string | undefined; id: string }) {
  return text ? <span class="error field-error" role="alert" id={id}>{text}</span> : null;
}

export function CriterionRow({ project, name, criterion: c, cohorts, names, problems, onChange, onRemove }: RowProps) {
  const set = (patch: Partial<Criterion>) => onChange({ ...c, ...patch });
  const idOf = (field: string) => `${name.replace(/\W+/g, '-')}-${field}-error`;
  const invalid = (field: string) => (problems(field) ? { 'aria-invalid': true, 'aria-describedby': idOf(field) } : {});
  const number = (field: string, label: string, value: string, onInput: (v: string) => void, min = 1) => (
    <>
      <input type="number" min={min} class="number" aria-label={`${name} ${label}`} value={value} {...invalid(field)}
        onInput={(e) => onInput((e.currentTarget as HTMLInputElement).value)} />
      <Problem text={problems(field)} id={idOf(field)} />
    </>
  );
  const interval = (label: string, value: string, onPick: (v: string) => void) => (
    <select aria-label={`${name} ${label}`} value={value} onChange={(e) => onPick((e.currentTarget as HTMLSelectElement).value)}>
      {TIME_INTERVALS.map((u) => <option value={u}>{u}s</option>)}
    </select>
  );

  if (c.raw) {
    return (
      <div class="criterion" data-testid="criterion">
        <code title="Kept as saved: this editor does not show its fields">{JSON.stringify(c.raw)}</code>
        <button type="button" class="icon-button" aria-label={`Remove ${name}`} onClick={onRemove}>✕</button>
      </div>
    );
  }

  const changeKind = (kind: RowKind) => {
    // Behaviour rows keep the event; person and cohort rows start afresh.
    const fresh = newCriterion(kind);
    onChange(isBehaviour(kind) && isBehaviour(c.kind) ? { ...c, kind } : isPerson(kind) && isPerson(c.kind) ? { ...c, kind } : isCohort(kind) && isCohort(c.kind) ? { ...c, kind } : fresh);
  };
  const values = valuesOf({ key: c.key, operator: c.operator, type: 'person', value: valueFor(c.operator, c.values) });
  const operators = operatorsFor(c.propertyType);

  return (
    <div class="criterion" data-testid="criterion" data-kind={c.kind}>
      <select aria-label={`${name} kind`} value={c.kind} onChange={(e) => changeKind((e.currentTarget as HTMLSelectElement).value as RowKind)}>
        {ROW_KINDS.map((s) => <optgroup label={s.section}>{s.kinds.map(([k, label]) => <option value={k}>{label}</option>)}</optgroup>)}
      </select>

      {isBehaviour(c.kind) && (
        <>
          <span {...invalid('key')}>
            <Combobox label={`${name} event`} placeholder="event or action" value={c.eventType === 'actions' ? names.actions.get(c.key) ?? c.keyLabel : c.keyLabel} load={seriesOptions(project, false)}
              onPick={(o) => {
                const [kind, ...rest] = o.value.split(':');
                const key = rest.join(':') || o.value;
                set({ eventType: kind === 'action' ? 'actions' : 'events', key, keyLabel: o.label });
              }}
              unseen={(typed) => ({ value: `event:${typed}`, label: typed })} />
          </span>
          <Problem text={problems('key')} id={idOf('key')} />
          {c.kind === 'performed_event_multiple' && (
            <>
              <select aria-label={`${name} count operator`} value={c.countOperator} onChange={(e) => set({ countOperator: (e.currentTarget as HTMLSelectElement).value })}>
                {COUNT_OPERATORS.map(([op, label]) => <option value={op}>{label}</option>)}
              </select>
              {number('operator_value', 'times', c.count, (count) => set({ count }), 0)}
              <span class="muted">times</span>
            </>
          )}
          <span class="muted">{c.kind === 'performed_event_first_time' ? 'for the first time in the last' : 'in the last'}</span>
          {number('time_value', 'period count', c.timeValue, (timeValue) => set({ timeValue }))}
          {interval('period', c.timeInterval, (timeInterval) => set({ timeInterval }))}
          {(c.kind === 'stopped_performing_event' || c.kind === 'restarted_performing_event') && (
            <>
              <span class="muted">{c.kind === 'stopped_performing_event' ? 'but had done it in the' : 'after not doing it in the'}</span>
              {number('seq_time_value', 'earlier period count', c.seqTimeValue, (seqTimeValue) => set({ seqTimeValue }))}
              {interval('earlier period', c.seqTimeInterval, (seqTimeInterval) => set({ seqTimeInterval }))}
              <span class="muted">before</span>
            </>
          )}
        </>
      )}

      {isPerson(c.kind) && (
        <>
          <span {...invalid('key')}>
            <Combobox label={`${name} property`} placeholder="person property" value={c.key} load={propertyOptions(project, 'person')} free
              onPick={(o) => set({ key: o.value, keyLabel: o.label, propertyType: o.hint ?? null, values: [], operator: operatorsFor(o.hint ?? null).includes(c.operator) ? c.operator : 'exact' })} />
          </span>
          <Problem text={problems('key')} id={idOf('key')} />
          <select aria-label={`${name} operator`} value={c.operator} onChange={(e) => {
            const operator = (e.currentTarget as HTMLSelectElement).value as Operator;
            set({ operator, values: takesValue(operator) ? (takesList(operator) ? c.values : c.values.slice(0, 1)) : [] });
          }}>
            {operators.map((op) => <option value={op}>{operatorLabel(op)}</option>)}
            {!operators.includes(c.operator) && <option value={c.operator}>{operatorLabel(c.operator)}</option>}
          </select>
          {takesValue(c.operator) && (
            <span {...invalid('value')}>
              {takesList(c.operator)
                ? <ValueChips label={name} values={values} setValues={(next) => set({ values: next })} load={valueOptions(project, 'person', c.key)} />
                : <Combobox label={`${name} value`} placeholder="value" value={values[0] ?? ''} free load={valueOptions(project, 'person', c.key)} onPick={(o) => set({ values: [o.value] })} />}
            </span>
          )}
          <Problem text={problems('value')} id={idOf('value')} />
        </>
      )}

      {isCohort(c.kind) && (
        <>
          <span {...invalid('value')}>
            <Combobox label={`${name} cohort`} placeholder="cohort" value={c.keyLabel || names.cohorts.get(c.cohortId) || (c.cohortId ? `Cohort ${c.cohortId}` : '')} load={cohorts}
              onPick={(o) => set({ cohortId: o.value, keyLabel: o.label })} />
          </span>
          <Problem text={problems('value')} id={idOf('value')} />
        </>
      )}
      <button type="button" class="icon-button" aria-label={`Remove ${name}`} onClick={onRemove}>✕</button>
    </div>
  );
}
