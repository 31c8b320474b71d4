// "Delete …?" under a page's actions: what goes, and the one button that does it. PostHog deletes
// dashboards and insights softly (PATCH {deleted: true}); the caller does that and moves on.
import { useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { Popover } from '../Popover';

export function ConfirmDelete({ what, name, detail, onConfirm, onClose }: {
  /** "dashboard", "insight". */
  what: string;
  name: string;
  detail?: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    setBusy(true);
    setError(null);
    try {
      await onConfirm();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  };
  return (
    <Popover title={`Delete ${what}`} onClose={onClose} testId="confirm-delete">
      <p>Delete the {what} <strong>{name}</strong>?{detail ? ` ${detail}` : ''}</p>
      <div class="inline">
        <button type="button" class="danger" disabled={busy} onClick={go}>Delete {what}</button>
        <button type="button" disabled={busy} onClick={onClose}>Cancel</button>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
    </Popover>
  );
}
