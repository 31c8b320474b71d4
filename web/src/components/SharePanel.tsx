// Public sharing of an insight, a whole dashboard or a session recording: the switch (PATCH …/sharing/ {enabled}) and,
// when on, the link anyone can open without signing in, and a new link (POST …/sharing/refresh/)
// that stops the old one working.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { CopyButton } from './CopyButton';
import { Popover } from './Popover';

interface Sharing { enabled: boolean; access_token: string | null; created_at?: string | null }

export function SharePanel({ project, insightId, dashboardId, sessionId, onClose }: { project: string; insightId?: number; dashboardId?: number; sessionId?: string; onClose: () => void }) {
  const what = sessionId !== undefined ? 'recording' : dashboardId !== undefined ? 'dashboard' : 'insight';
  const path = sessionId !== undefined
    ? `/api/projects/${project}/session_recordings/${encodeURIComponent(sessionId)}/sharing/`
    : `/api/projects/${project}/${what}s/${dashboardId ?? insightId}/sharing/`;
  const [sharing, setSharing] = useState<Sharing | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    api<Sharing>(path).then(setSharing).catch((e) => setError(e instanceof ApiError ? e.message : String(e)));
  }, [path]);

  const toggle = async (enabled: boolean) => {
    const before = sharing;
    // The switch moves at once; the answer (with the token) follows, or the switch moves back.
    if (before) setSharing({ ...before, enabled });
    setBusy(true);
    setError(null);
    try {
      setSharing(await api<Sharing>(path, { method: 'PATCH', body: { enabled } }));
    } catch (e) {
      setSharing(before);
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const rotate = async () => {
    setBusy(true);
    setError(null);
    try {
      setSharing(await api<Sharing>(`${path}refresh/`, { method: 'POST' }));
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  // Only the server's answer names the token that works (enabling may issue a new one).
  const link = !busy && sharing?.enabled && sharing.access_token ? `${location.origin}/shared/${sharing.access_token}` : null;
  return (
    <Popover title="Share" onClose={onClose} testId="share-panel">
      {!sharing && !error && <p class="muted">Loading…</p>}
      {sharing && (
        <div class="stack">
          <label class="check">
            <input type="checkbox" name="share-enabled" checked={sharing.enabled} disabled={busy} onChange={(e) => toggle((e.currentTarget as HTMLInputElement).checked)} />
            Share publicly: anyone with the link can see this {what}
          </label>
          {link && (
            <div class="copy-row">
              <input readOnly aria-label="Public link" data-testid="share-link" value={link} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
              <CopyButton text={link} label="Copy link" />
            </div>
          )}
          {link && <button type="button" disabled={busy} onClick={rotate} title="The current link stops working at once">Reset link</button>}
        </div>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </Popover>
  );
}
