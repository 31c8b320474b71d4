// The annotations of one date (edit, delete, add another) and the form that makes or edits one.
import { useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { bucketTime, deleteAnnotation, saveAnnotation, type Annotation, type AnnotationPlace, type AnnotationScope } from './store';

/** PostHog's Annotation.content max_length. */
const MAX_CONTENT = 400;

export function describe(annotation: Annotation) {
  const author = annotation.created_by;
  const who = author ? author.first_name || author.email : 'Someone';
  const when = annotation.date_marker ? new Date(annotation.date_marker).toISOString().slice(0, 16).replace('T', ' ') + ' UTC' : '';
  return { what: annotation.content || '(no text)', who, when };
}

const SCOPE_NAMES: Record<AnnotationScope, string> = {
  dashboard_item: 'This insight',
  dashboard: 'This dashboard',
  project: 'This project',
  organization: 'All projects in the organization',
};

export function AnnotationList({ place, annotations, day }: { place: AnnotationPlace; annotations: Annotation[]; day: string | number }) {
  const [editing, setEditing] = useState<number | 'new' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const remove = async (a: Annotation) => {
    setError(null);
    try {
      await deleteAnnotation(place.projectId, a.id);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <div class="annotation-list">
      <ul>
        {annotations.map((a) => {
          if (editing === a.id) {
            return <li key={a.id}><AnnotationForm place={place} day={day} editing={a} onDone={() => setEditing(null)} onCancel={() => setEditing(null)} /></li>;
          }
          const { what, who, when } = describe(a);
          return (
            <li key={a.id} data-testid="annotation-item">
              <p class="annotation-content">{what}</p>
              <p class="muted">{who} · {when} · {SCOPE_NAMES[a.scope] ?? a.scope}</p>
              <div class="row-actions">
                <button type="button" onClick={() => setEditing(a.id)}>Edit</button>
                <button type="button" class="danger" onClick={() => remove(a)}>Delete</button>
              </div>
            </li>
          );
        })}
      </ul>
      {error && <p class="error">{error}</p>}
      {editing === 'new'
        ? <AnnotationForm place={place} day={day} onDone={() => setEditing(null)} onCancel={() => setEditing(null)} />
        : <button type="button" onClick={() => setEditing('new')}>Add another</button>}
    </div>
  );
}

export function AnnotationForm({ place, day, editing, onDone, onCancel }: {
  place: AnnotationPlace;
  day: string | number;
  editing?: Annotation;
  onDone: () => void;
  onCancel: () => void;
}) {
  const scopes: AnnotationScope[] = [
    ...(place.insightId !== null ? (['dashboard_item'] as const) : []),
    ...(place.dashboardId !== null ? (['dashboard'] as const) : []),
    'project',
    'organization',
  ];
  const [content, setContent] = useState(editing?.content ?? '');
  const [scope, setScope] = useState<AnnotationScope>(editing?.scope ?? scopes[0]!);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    const body: Record<string, unknown> = { content: content.trim(), scope };
    if (scope === 'dashboard_item') body.dashboard_item = place.insightId;
    if (scope === 'dashboard') body.dashboard_id = place.dashboardId;
    if (!editing) body.date_marker = new Date(bucketTime(day)).toISOString();
    try {
      await saveAnnotation(place.projectId, editing?.id ?? null, body);
      onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  };
  return (
    <form class="annotation-form" onSubmit={submit} data-testid="annotation-form">
      <label>
        Note
        <textarea
          name="content"
          rows={2}
          maxLength={MAX_CONTENT}
          value={content}
          placeholder="What happened on this date?"
          onInput={(e) => setContent((e.target as HTMLTextAreaElement).value)}
        />
      </label>
      <label>
        Show on
        <select name="scope" value={scope} onChange={(e) => setScope((e.target as HTMLSelectElement).value as AnnotationScope)}>
          {scopes.map((s) => <option key={s} value={s}>{SCOPE_NAMES[s]}</option>)}
        </select>
      </label>
      {error && <p class="error">{error}</p>}
      <div class="row-actions">
        <button type="submit" class="primary" disabled={busy || content.trim() === ''}>Save</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
