// Duplicate a dashboard as PostHog does: POST a new one with `use_dashboard` (the server copies
// the filters and the tiles in their places); "duplicate the insights too" adds
// `duplicate_tiles`, so the copy gets its own insights named "<name> (Copy)".
import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import type { Dashboard } from '../../types';
import { Popover } from '../Popover';

export function DuplicateDashboard({ project, dashboard, onDone, onClose }: {
  project: string;
  dashboard: Dashboard;
  onDone: (copy: Dashboard) => void;
  onClose: () => void;
}) {
  const [name, setName] = useState(`${dashboard.name || 'Untitled'} (Copy)`);
  const [deep, setDeep] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = { name: name.trim(), description: dashboard.description ?? '', use_dashboard: dashboard.id, duplicate_tiles: deep };
      onDone(await api<Dashboard>(`/api/projects/${project}/dashboards/`, { method: 'POST', body }));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  };
  return (
    <Popover title="Duplicate dashboard" onClose={onClose} testId="duplicate-dashboard">
      <form class="stack" onSubmit={submit}>
        <label>Name <input name="duplicate-name" value={name} required onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} /></label>
        <label class="check">
          <input type="checkbox" name="duplicate-tiles" checked={deep} onChange={(e) => setDeep((e.currentTarget as HTMLInputElement).checked)} />
          Duplicate the insights too (otherwise the copy shows the same insights)
        </label>
        <div class="inline">
          <button type="submit" class="primary" disabled={busy || !name.trim()}>Duplicate</button>
          <button type="button" disabled={busy} onClick={onClose}>Cancel</button>
        </div>
        {error && <p class="error" role="alert">{error}</p>}
      </form>
    </Popover>
  );
}
