// A filter's list of values as removable chips, with a box to add one more (picked or typed);
// shared by the insight filters and the flag conditions.
import { Combobox } from './Combobox';

export function ValueChips({ label, values, setValues, load }: {
  /** The add box's label: "<label> value". */
  label: string;
  values: string[];
  setValues: (next: string[]) => void;
  load: Parameters<typeof Combobox>[0]['load'];
}) {
  return (
    <span class="chips">
      {values.map((v) => (
        <span class="chip">
          {v}
          <button type="button" class="icon-button" aria-label={`Remove value ${v}`} onClick={() => setValues(values.filter((x) => x !== v))}>✕</button>
        </span>
      ))}
      <Combobox label={`${label} value`} placeholder={values.length ? 'or…' : 'value'} value="" clearOnPick free load={load}
        onPick={(o) => { if (!values.includes(o.value)) setValues([...values, o.value]); }} />
    </span>
  );
}
