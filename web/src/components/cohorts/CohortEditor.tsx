// A cohort's editor: name, description, and either its criteria (groups of criteria, each matched
// with AND/OR, the groups too) or, for a static cohort, a CSV of people. Nothing incomplete is
// sent; the API's 400 is shown beside the field it names.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { listCohorts, saveCohort, type Cohort } from '../../lib/cohorts';
import type { Option } from '../../lib/definitions';
import { CriterionRow } from './CriterionRow';
import { emptyCriteria, newCriterion, newGroup, pathOfAttr, problemsOf, readCriteria, writeCriteria, type Criteria } from './criteria';

function AndOr({ label, value, onChange }: { label: string; value: 'AND' | 'OR'; onChange: (v: 'AND' | 'OR') => void }) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange((e.currentTarget as HTMLSelectElement).value as 'AND' | 'OR')}>
      <option value="AND">all (AND)</option>
      <option value="OR">any (OR)</option>
    </select>
  );
}

export function CohortEditor({ project, cohort, onSaved, onCancel }: {
  project: string;
  /** null: a new cohort. */
  cohort: Cohort | null;
  onSaved: (saved: Cohort) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(cohort?.name ?? '');
  const [description, setDescription] = useState(cohort?.description ?? '');
  const [isStatic, setStatic] = useState(cohort?.is_static ?? false);
  const [csv, setCsv] = useState<File | null>(null);
  const initial = useMemo(() => (cohort ? readCriteria(cohort.filters) : emptyCriteria()), [cohort]);
  const [criteria, setCriteria] = useState<Criteria | null>(initial);
  const [shown, setShown] = useState<Map<string, string>>(new Map());
  const [serverError, setServerError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  // Saved criteria name cohorts and actions by id: the rows show their names.
  const [names, setNames] = useState({ cohorts: new Map<string, string>(), actions: new Map<string, string>() });
  useEffect(() => {
    if (!cohort) return;
    const controller = new AbortController();
    Promise.all([
      listCohorts(project, controller.signal),
      api<{ results: { id: number; name: string }[] }>(`/api/projects/${project}/actions/?limit=500`, { signal: controller.signal }),
    ]).then(([cohorts, actions]) => setNames({
      cohorts: new Map(cohorts.results.map((c) => [String(c.id), c.name || `Cohort ${c.id}`])),
      actions: new Map(actions.results.map((a) => [String(a.id), a.name])),
    })).catch(() => { /* ids stay shown */ });
    return () => controller.abort();
  }, [project, cohort?.id]);

  const cohortOptions = useMemo(() => async (search: string, signal: AbortSignal): Promise<Option[]> => {
    const page = await listCohorts(project, signal);
    const needle = search.trim().toLowerCase();
    return page.results
      .filter((c) => c.id !== cohort?.id && (c.name || `Cohort ${c.id}`).toLowerCase().includes(needle))
      .map((c) => ({ value: String(c.id), label: c.name || `Cohort ${c.id}`, hint: c.is_static ? 'static' : undefined }));
  }, [project, cohort?.id]);

  const change = (next: Criteria) => {
    setCriteria(next);
    // Problems already shown follow the edits; new ones wait for the next save.
    if (shown.size > 0) setShown(problemsOf(next));
  };

  const save = async (e: Event) => {
    e.preventDefault();
    setServerError(null);
    const dynamic = !isStatic && criteria !== null;
    const problems = dynamic ? problemsOf(criteria!) : new Map<string, string>();
    if (!name.trim()) problems.set('name', 'Give the cohort a name.');
    if (isStatic && !cohort && !csv) problems.set('csv', 'Choose a CSV file of distinct ids, person ids or emails.');
    setShown(problems);
    if (problems.size > 0) return;
    setSaving(true);
    try {
      const body: Record<string, unknown> = { name: name.trim(), description };
      if (!cohort) body.is_static = isStatic;
      if (dynamic) body.filters = writeCriteria(criteria!);
      onSaved(await saveCohort(project, cohort?.id ?? null, body, csv));
    } catch (err) {
      setSaving(false);
      if (!(err instanceof ApiError)) { setServerError(String(err)); return; }
      const at = pathOfAttr(err.attr) ?? (err.attr === 'name' || err.attr === 'description' || err.attr === 'csv' ? err.attr : null);
      if (at !== null) setShown(new Map([[at, err.message]]));
      else setServerError(`${err.message}${err.attr ? ` (${err.attr})` : ''}`);
    }
  };

  const fieldError = (key: string) => shown.get(key);
  const title = cohort ? 'Edit cohort' : 'New cohort';
  return (
    <form class="cohort-editor" aria-label={title} onSubmit={save} noValidate>
      <label class="field">Name
        <input name="name" value={name} aria-invalid={fieldError('name') ? true : undefined} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
        {fieldError('name') && <span class="error field-error" role="alert">{fieldError('name')}</span>}
      </label>
      <label class="field">Description
        <input name="description" value={description} onInput={(e) => setDescription((e.currentTarget as HTMLInputElement).value)} />
        {fieldError('description') && <span class="error field-error" role="alert">{fieldError('description')}</span>}
      </label>
      {!cohort && (
        <fieldset class="field">
          <legend>Type</legend>
          <label><input type="radio" name="cohort-type" checked={!isStatic} onChange={() => setStatic(false)} /> Dynamic: people who match criteria, recalculated</label>
          <label><input type="radio" name="cohort-type" checked={isStatic} onChange={() => setStatic(true)} /> Static: a fixed list uploaded as CSV</label>
        </fieldset>
      )}
      {isStatic && (
        <label class="field">{cohort ? 'Add people from a CSV' : 'CSV of people'}
          <input type="file" name="csv" accept=".csv,text/csv" onChange={(e) => setCsv((e.currentTarget as HTMLInputElement).files?.[0] ?? null)} />
          {fieldError('csv') && <span class="error field-error" role="alert">{fieldError('csv')}</span>}
        </label>
      )}
      {!isStatic && criteria === null && <p class="muted">These criteria nest deeper than this editor shows; they are kept as saved.</p>}
      {!isStatic && criteria !== null && (
        <div class="criteria" data-testid="cohort-criteria-editor">
          <p class="criteria-head">Match people who match <AndOr label="Match groups" value={criteria.type} onChange={(type) => change({ ...criteria, type })} /> of these groups</p>
          {criteria.groups.map((group, g) => {
            const setGroup = (next: typeof group) => change({ ...criteria, groups: criteria.groups.map((x, k) => (k === g ? next : x)) });
            return (
              <fieldset class="criteria-group" data-testid={`cohort-group-${g}`} aria-label={`Group ${g + 1}`}>
                <legend>
                  {g > 0 && <span class="tag">{criteria.type}</span>} Group {g + 1}: matching <AndOr label={`Group ${g + 1} match`} value={group.type} onChange={(type) => setGroup({ ...group, type })} />
                  {criteria.groups.length > 1 && (
                    <button type="button" class="link-button" onClick={() => change({ ...criteria, groups: criteria.groups.filter((_, k) => k !== g) })}>Remove group {g + 1}</button>
                  )}
                </legend>
                {fieldError(`${g}`) && <p class="error" role="alert">{fieldError(`${g}`)}</p>}
                {group.criteria.map((c, i) => (
                  <CriterionRow
                    key={`${g}-${i}`}
                    project={project}
                    name={`Group ${g + 1} criterion ${i + 1}`}
                    criterion={c}
                    cohorts={cohortOptions}
                    names={names}
                    problems={(field) => fieldError(`${g}.${i}.${field}`)}
                    onChange={(next) => setGroup({ ...group, criteria: group.criteria.map((x, k) => (k === i ? next : x)) })}
                    onRemove={() => setGroup({ ...group, criteria: group.criteria.filter((_, k) => k !== i) })}
                  />
                ))}
                <button type="button" class="link-button" onClick={() => setGroup({ ...group, criteria: [...group.criteria, newCriterion()] })}>+ Add criterion to group {g + 1}</button>
              </fieldset>
            );
          })}
          <button type="button" class="link-button" onClick={() => change({ ...criteria, groups: [...criteria.groups, newGroup()] })}>+ Add criteria group</button>
        </div>
      )}
      {serverError && <p class="error" role="alert">{serverError}</p>}
      {shown.size > 0 && !serverError && <p class="error" data-testid="cohort-not-saved">Not saved: fix what is marked.</p>}
      <div class="controls">
        <button type="submit" disabled={saving}>{saving ? 'Saving…' : cohort ? 'Save cohort' : 'Create cohort'}</button>
        <button type="button" class="link-button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
