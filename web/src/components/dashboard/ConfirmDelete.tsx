// "Delete …?" under a page's actions: what goes, and the one button that does it. PostHog deletes
// dashboards and insights softly (PATCH {deleted: true}); the caller does that and moves on.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { Popover } from '../Popover';

export function ConfirmDelete({ what, name, detail, onConfirm, onClose, button = `Delete ${what}`, testId = 'confirm-delete', children }: {
  /** "dashboard", "insight", "person". */
  what: string;
  name: string;
  detail?: string;
  onConfirm: () => Promise<void>;
  onClose: () => void;
  /** The confirming button's text. */
  button?: string;
  testId?: string;
  /** Choices shown above the buttons (a person's "also delete their events"). */
  children?: ComponentChildren;
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
    <Popover title={`Delete ${what}`} onClose={onClose} testId={testId}>
      <p>Delete the {what} <strong>{name}</strong>?{detail ? ` ${detail}` : ''}</p>
      {children}
      <div class="inline">
        <button type="button" class="danger" disabled={busy} onClick={go}>{button}</button>
        <button type="button" disabled={busy} onClick={onClose}>Cancel</button>
      </div>
      {error && <p class="error" role="alert">{error}</p>}
    </Popover>
  );
}
