// Cohorts: the project's cohorts with their size, and a new cohort of one condition.
import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { ago, num, when } from '../lib/format';
import { createCohort, describeCriteria, listCohorts, type NewCondition } from '../lib/cohorts';
import { useLoad } from '../lib/useApi';
import { navigate, onLinkClick } from '../router';

export function CohortsPage({ project }: { project: string }) {
  const list = useLoad((signal) => listCohorts(project, signal), [project]);
  const cohorts = list.data?.results ?? [];
  return (
    <section>
      <div class="page-head"><h1>Cohorts</h1></div>
      <NewCohortForm project={project} />
      {list.error && <p class="error" role="alert">{list.error}</p>}
      <table class="list-table" data-testid="cohorts-table" aria-busy={list.loading} data-state={list.loading ? 'loading' : 'ready'}>
        <thead><tr><th scope="col">Cohort</th><th scope="col">Criteria</th><th scope="col">People</th><th scope="col">Created</th></tr></thead>
        <tbody>
          {cohorts.map((c) => (
            <tr data-id={c.id}>
              <td><a href={`/project/${project}/cohorts/${c.id}`} onClick={onLinkClick}>{c.name || `Cohort ${c.id}`}</a></td>
              <td class="muted">{describeCriteria(c)}</td>
              <td>{c.is_calculating ? <span class="muted">calculating…</span> : c.count === null ? '—' : num(c.count)}</td>
              <td title={when(c.created_at)}>{ago(c.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!list.loading && cohorts.length === 0 && !list.error && <p class="empty">No cohorts yet.</p>}
    </section>
  );
}

/** Name plus one condition: a person property equal to a value, or an event done in the last N days. */
function NewCohortForm({ project }: { project: string }) {
  const [name, setName] = useState('');
  const [kind, setKind] = useState<'person' | 'event'>('person');
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [days, setDays] = useState('30');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setSaving(true);
    const condition: NewCondition = kind === 'person' ? { kind, key, value } : { kind, event: key, days: Number(days) };
    try {
      const created = await createCohort(project, name, condition);
      navigate(`/project/${project}/cohorts/${created.id}`);
    } catch (err) {
      setError(err instanceof ApiError ? `${err.message}${err.attr ? ` (${err.attr})` : ''}` : String(err));
      setSaving(false);
    }
  };
  return (
    <form class="controls cohort-form" aria-label="New cohort" onSubmit={submit}>
      <input name="name" aria-label="Cohort name" placeholder="New cohort name" value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} required />
      <select name="kind" aria-label="Condition" value={kind} onChange={(e) => setKind((e.currentTarget as HTMLSelectElement).value as 'person' | 'event')}>
        <option value="person">person property is</option>
        <option value="event">did event in the last</option>
      </select>
      {kind === 'person' ? (
        <>
          <input name="key" aria-label="Person property" placeholder="property, e.g. plan" value={key} onInput={(e) => setKey((e.currentTarget as HTMLInputElement).value)} required />
          <input name="value" aria-label="Value" placeholder="value" value={value} onInput={(e) => setValue((e.currentTarget as HTMLInputElement).value)} required />
        </>
      ) : (
        <>
          <input name="days" type="number" min="1" aria-label="Days" value={days} onInput={(e) => setDays((e.currentTarget as HTMLInputElement).value)} required />
          <span class="muted">days:</span>
          <input name="event" aria-label="Event" placeholder="event, e.g. purchase" value={key} onInput={(e) => setKey((e.currentTarget as HTMLInputElement).value)} required />
        </>
      )}
      <button type="submit" disabled={saving}>Create cohort</button>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}
