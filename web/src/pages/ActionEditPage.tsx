// Create or edit an action: name, description, tags, and its steps (any one matching is enough),
// with the count of events the steps as they stand match in the last 30 days.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { MatchCount } from '../components/actions/MatchCount';
import { StepEditor } from '../components/actions/StepEditor';
import { autocaptureStep, blankStep, deleteAction, getAction, saveAction, type Action, type ActionStep } from '../components/actions/steps';
import { parseTags } from '../lib/dataManagement';
import { useLoad } from '../lib/useApi';
import { navigate, onLinkClick } from '../router';

export function ActionEditPage({ project, id }: { project: string; id?: string }) {
  const loaded = useLoad(id ? (signal) => getAction(project, id, signal) : null, [project, id]);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [steps, setSteps] = useState<ActionStep[]>(id ? [] : [blankStep()]);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const action = loaded.data;

  useEffect(() => {
    if (!action) return;
    setName(action.name);
    setDescription(action.description);
    setTags(action.tags.join(', '));
    setSteps(action.steps.length ? action.steps : [blankStep()]);
  }, [action]);

  const edited = () => setSaved(false);
  const setStep = (i: number, next: ActionStep) => { setSteps(steps.map((s, k) => (k === i ? next : s))); edited(); };

  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    if (!name.trim()) { setError('You need to set a name.'); return; }
    setSaving(true);
    try {
      const result: Action = await saveAction(project, action?.id ?? null, { name: name.trim(), description, tags: parseTags(tags), steps });
      if (!action) navigate(`/project/${project}/actions/${result.id}`, true);
      else { loaded.set(result); setSaved(true); }
    } catch (err) {
      setError(err instanceof ApiError ? `${err.message}${err.attr ? ` (${err.attr})` : ''}` : String(err));
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!action) return;
    try {
      await deleteAction(project, action.id);
      navigate(`/project/${project}/actions`);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };

  if (loaded.error) return <section><p class="error" role="alert">{loaded.error}</p></section>;
  if (id && !action) return <section><p class="muted">Loading…</p></section>;
  if (action?.deleted) return <section><h1>{action.name}</h1><p class="muted">This action was deleted.</p></section>;
  return (
    <section>
      <div class="page-head">
        <h1>{action ? action.name : 'New action'}</h1>
        <a href={`/project/${project}/actions`} onClick={onLinkClick}>All actions</a>
      </div>
      <form class="definition-form action-form" aria-label={action ? 'Edit action' : 'New action'} onSubmit={save}>
        <label>
          Name
          <input name="name" required value={name} onInput={(e) => { setName((e.currentTarget as HTMLInputElement).value); edited(); }} />
        </label>
        <label>
          Description
          <textarea name="description" rows={2} value={description} onInput={(e) => { setDescription((e.currentTarget as HTMLTextAreaElement).value); edited(); }} />
        </label>
        <label>
          Tags
          <input name="tags" placeholder="comma-separated" value={tags} onInput={(e) => { setTags((e.currentTarget as HTMLInputElement).value); edited(); }} />
        </label>
        <h2>Match groups</h2>
        <p class="muted">An event is this action when it matches any one of these groups (OR); within a group every condition must hold.</p>
        <ol class="series-list" aria-label="Steps">
          {steps.map((step, i) => (
            <StepEditor key={i} project={project} index={i} step={step} onChange={(next) => setStep(i, next)} onRemove={steps.length > 1 ? () => { setSteps(steps.filter((_, k) => k !== i)); edited(); } : null} />
          ))}
        </ol>
        <div class="inline">
          <button type="button" onClick={() => { setSteps([...steps, blankStep()]); edited(); }}>+ Add page view group</button>
          <button type="button" onClick={() => { setSteps([...steps, autocaptureStep()]); edited(); }}>+ Add element (autocapture) group</button>
        </div>
        <MatchCount project={project} steps={steps} />
        <div class="inline">
          <button type="submit" class="primary" disabled={saving}>{action ? 'Save' : 'Create action'}</button>
          {saved && <span class="muted" role="status">Saved</span>}
          {action && !confirming && <button type="button" class="danger" onClick={() => setConfirming(true)}>Delete</button>}
          {action && confirming && (
            <span class="inline" role="group" aria-label="Confirm delete">
              <span>Delete “{action.name}”? Insights using it will match nothing.</span>
              <button type="button" class="danger" onClick={remove}>Yes, delete</button>
              <button type="button" onClick={() => setConfirming(false)}>Cancel</button>
            </span>
          )}
        </div>
        {error && <p class="error" role="alert">{error}</p>}
      </form>
    </section>
  );
}
