// One step of an action, with PostHog's fields: the event, and for autocapture the element's text,
// link, selector and tag; for any event a URL with its match type; and property filters.
import type { ComponentChildren } from 'preact';
import { api, qs } from '../../api';
import { Combobox } from '../Combobox';
import { PropertyFilters } from '../PropertyFilters';
import type { Option } from '../../lib/definitions';
import { readFilters } from '../../lib/filters';
import type { Page } from '../../types';
import { MATCHINGS, type ActionStep, type StepMatching } from './steps';

const ANY = 'Any event';

function eventOptions(project: string) {
  return async (search: string, signal: AbortSignal): Promise<Option[]> => {
    const page = await api<Page<{ name: string }>>(`/api/projects/${project}/event_definitions/${qs({ search, limit: 50, exclude_hidden: true })}`, { signal });
    const any = ANY.toLowerCase().includes(search.trim().toLowerCase()) ? [{ value: '', label: ANY }] : [];
    return [...any, ...page.results.map((e) => ({ value: e.name, label: e.name }))];
  };
}

export function StepEditor({ project, index, step, onChange, onRemove }: {
  project: string;
  index: number;
  step: ActionStep;
  onChange: (next: ActionStep) => void;
  onRemove: (() => void) | null;
}) {
  const n = index + 1;
  const set = (patch: Partial<ActionStep>) => onChange({ ...step, ...patch });
  // Element fields belong to autocapture; a step saved with them on another event shows them too.
  const autocapture = step.event === '$autocapture' || !!(step.text || step.href || step.selector || step.tag_name);
  return (
    <li class="series-row action-step" data-testid={`step-${index}`} aria-label={`Match group ${n}`}>
      <div class="series-main">
        <span class="badge" aria-hidden="true">{n}</span>
        <Combobox
          label={`Step ${n} event`}
          value={step.event || ANY}
          load={eventOptions(project)}
          onPick={(o) => set({ event: o.value === '' ? null : o.value })}
          unseen={(typed) => ({ value: typed, label: `Select event: ${typed}` })}
        />
        {onRemove && <button type="button" class="icon-button" aria-label={`Remove step ${n}`} onClick={onRemove}>✕</button>}
      </div>
      {autocapture && (
        <>
          <MatchedField n={n} label="Element text" value={step.text} matching={step.text_matching ?? 'exact'} onValue={(text) => set({ text })} onMatching={(text_matching) => set({ text_matching })} />
          <MatchedField n={n} label="Link target (href)" value={step.href} matching={step.href_matching ?? 'exact'} onValue={(href) => set({ href })} onMatching={(href_matching) => set({ href_matching })} />
          <Field n={n} label="CSS selector">
            <input aria-label={`Step ${n} CSS selector`} class="mono" placeholder="button[data-attr=signup]" value={step.selector ?? ''} onInput={(e) => set({ selector: (e.currentTarget as HTMLInputElement).value })} />
          </Field>
          <Field n={n} label="HTML tag">
            <input aria-label={`Step ${n} HTML tag`} class="mono" placeholder="button" value={step.tag_name ?? ''} onInput={(e) => set({ tag_name: (e.currentTarget as HTMLInputElement).value })} />
          </Field>
        </>
      )}
      <MatchedField n={n} label="Page URL" value={step.url} matching={step.url_matching ?? 'contains'} onValue={(url) => set({ url })} onMatching={(url_matching) => set({ url_matching })} />
      <PropertyFilters
        project={project}
        label={`Step ${n} filters`}
        filters={readFilters(step.properties)}
        eventName={step.event}
        onChange={(properties) => set({ properties })}
      />
    </li>
  );
}

function Field({ n, label, children }: { n: number; label: string; children: ComponentChildren }) {
  return <div class="inline step-field" data-field={`${n}-${label}`}><span class="step-label">{label}</span>{children}</div>;
}

function MatchedField({ n, label, value, matching, onValue, onMatching }: {
  n: number;
  label: string;
  value: string | null | undefined;
  matching: StepMatching;
  onValue: (v: string) => void;
  onMatching: (m: StepMatching) => void;
}) {
  return (
    <Field n={n} label={label}>
      <select aria-label={`Step ${n} ${label} matching`} value={matching} onChange={(e) => onMatching((e.currentTarget as HTMLSelectElement).value as StepMatching)}>
        {MATCHINGS.map(([m, text]) => <option value={m}>{text}</option>)}
      </select>
      <input aria-label={`Step ${n} ${label}`} value={value ?? ''} onInput={(e) => onValue((e.currentTarget as HTMLInputElement).value)} />
    </Field>
  );
}
