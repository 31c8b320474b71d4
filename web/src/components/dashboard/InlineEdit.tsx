// A name or description edited where it is shown: the text with an edit button; editing shows a
// field with Save and Cancel (Enter saves a one-line field, Escape cancels). The save is the
// caller's PATCH; its error stays under the field.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ApiError } from '../../api';

export function InlineEdit({ value, label, multiline = false, placeholder, onSave, children }: {
  value: string;
  /** What is edited, for the button and field names ("name", "description"). */
  label: string;
  multiline?: boolean;
  placeholder?: string;
  onSave: (value: string) => Promise<void>;
  /** How the value shows when not editing. */
  children: ComponentChildren;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const save = async (event?: Event) => {
    event?.preventDefault();
    if (draft === null) return;
    setBusy(true);
    setError(null);
    try {
      await onSave(multiline ? draft : draft.trim());
      setDraft(null);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') { setDraft(null); setError(null); }
  };

  if (draft === null) {
    return (
      <div class="inline-edit">
        {children}
        <button type="button" class="icon-button" aria-label={`Edit ${label}`} title={`Edit ${label}`} onClick={() => setDraft(value)}>✎</button>
      </div>
    );
  }
  const field = { name: label, 'aria-label': label[0]!.toUpperCase() + label.slice(1), value: draft, placeholder, disabled: busy, autoFocus: true, onKeyDown: onKey };
  return (
    <form class="inline-edit editing" onSubmit={save}>
      {multiline
        ? <textarea {...field} rows={2} onInput={(e) => setDraft((e.currentTarget as HTMLTextAreaElement).value)} />
        : <input {...field} onInput={(e) => setDraft((e.currentTarget as HTMLInputElement).value)} />}
      <button type="submit" class="primary" disabled={busy}>Save</button>
      <button type="button" disabled={busy} onClick={() => { setDraft(null); setError(null); }}>Cancel</button>
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}
