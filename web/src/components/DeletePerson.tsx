// A person page's "Delete person": PostHog's DELETE …/persons/:id/ (with ?delete_events=true when
// the box is ticked). The person leaves every list and insight at once; the page goes back to People.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { navigate } from '../router';
import { Popover } from './Popover';

export function DeletePerson({ project, id, name }: { project: string; id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const [withEvents, setWithEvents] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await api(`/api/projects/${project}/persons/${encodeURIComponent(id)}/${withEvents ? '?delete_events=true' : ''}`, { method: 'DELETE' });
      navigate(`/project/${project}/persons`);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  };
  return (
    <div class="inline">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>Delete person</button>
      {open && (
        <Popover title="Delete person" onClose={() => setOpen(false)} testId="delete-person">
          <p>Delete <strong>{name}</strong> and all their distinct ids? This cannot be undone.</p>
          <label class="inline">
            <input type="checkbox" checked={withEvents} onChange={(e) => setWithEvents((e.target as HTMLInputElement).checked)} />
            Also delete their events
          </label>
          <div class="inline">
            <button type="button" class="danger" disabled={busy} onClick={go}>Delete</button>
            <button type="button" disabled={busy} onClick={() => setOpen(false)}>Cancel</button>
          </div>
          {error && <p class="error" role="alert">{error}</p>}
        </Popover>
      )}
    </div>
  );
}
