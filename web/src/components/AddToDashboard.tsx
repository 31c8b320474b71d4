// Puts an insight on a dashboard: an existing one, or one created here. The insight's
// `dashboards` list is what places it (PATCH with the old ids plus the new one).
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { useApi } from '../lib/useApi';
import { onLinkClick } from '../router';
import type { Dashboard, Insight, Page } from '../types';
import { Popover } from './Popover';

export function AddToDashboard({ project, insight, onSaved, onClose }: {
  project: string;
  insight: Insight;
  onSaved: (insight: Insight) => void;
  onClose: () => void;
}) {
  const list = useApi<Page<Dashboard>>(`/api/projects/${project}/dashboards/?limit=200`);
  const [choice, setChoice] = useState('');
  const [newName, setNewName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [added, setAdded] = useState<Dashboard | null>(null);
  const on = new Set(insight.dashboards ?? []);
  const others = (list.data?.results ?? []).filter((d) => !on.has(d.id));

  const add = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const dashboard = choice === 'new'
        ? await api<Dashboard>(`/api/projects/${project}/dashboards/`, { method: 'POST', body: { name: newName.trim() || 'New dashboard' } })
        : others.find((d) => String(d.id) === choice)!;
      const updated = await api<Insight>(`/api/projects/${project}/insights/${insight.id}/`, {
        method: 'PATCH',
        body: { dashboards: [...(insight.dashboards ?? []), dashboard.id] },
      });
      setAdded(dashboard);
      onSaved(updated);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Popover title="Add to dashboard" onClose={onClose} testId="add-to-dashboard">
      {added ? (
        <p role="status">Added to <a href={`/project/${project}/dashboard/${added.id}`} onClick={onLinkClick}>{added.name}</a>.</p>
      ) : (
        <form class="stack" onSubmit={add}>
          {(insight.dashboards?.length ?? 0) > 0 && (
            <p class="muted">Already on {(list.data?.results ?? []).filter((d) => on.has(d.id)).map((d) => d.name).join(', ') || `${on.size} dashboard(s)`}.</p>
          )}
          <label>Dashboard
            <select name="dashboard" value={choice} onChange={(e) => setChoice((e.currentTarget as HTMLSelectElement).value)} required>
              <option value="" disabled>{list.loading ? 'Loading…' : 'Choose a dashboard'}</option>
              {others.map((d) => <option value={String(d.id)}>{d.name || 'Untitled'}</option>)}
              <option value="new">New dashboard…</option>
            </select>
          </label>
          {choice === 'new' && (
            <label>New dashboard's name
              <input name="new-dashboard" value={newName} onInput={(e) => setNewName((e.currentTarget as HTMLInputElement).value)} required />
            </label>
          )}
          {(error || list.error) && <p class="error" role="alert">{error ?? list.error}</p>}
          <button type="submit" class="primary" disabled={busy || !choice}>{busy ? 'Adding…' : 'Add'}</button>
        </form>
      )}
    </Popover>
  );
}
