// "New dashboard": a name and a description, POSTed; the caller opens the answer.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import type { Dashboard } from '../../types';
import { Popover } from '../Popover';

export function NewDashboard({ project, onDone, onClose }: { project: string; onDone: (d: Dashboard) => void; onClose: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onDone(await api<Dashboard>(`/api/projects/${project}/dashboards/`, { method: 'POST', body: { name: name.trim(), description } }));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  };
  return (
    <Popover title="New dashboard" onClose={onClose} testId="new-dashboard">
      <form class="stack" onSubmit={submit}>
        <label>Name <input name="dashboard-name" value={name} required autoFocus onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} /></label>
        <label>Description <textarea name="dashboard-description" rows={2} value={description} onInput={(e) => setDescription((e.currentTarget as HTMLTextAreaElement).value)} /></label>
        <div class="inline">
          <button type="submit" class="primary" disabled={busy || !name.trim()}>Create dashboard</button>
          <button type="button" disabled={busy} onClick={onClose}>Cancel</button>
        </div>
        {error && <p class="error" role="alert">{error}</p>}
      </form>
    </Popover>
  );
}
