// A small dialog under a page's action buttons; Escape or the close button dismisses it.
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

export function Popover({ title, onClose, children, testId }: { title: string; onClose: () => void; children: ComponentChildren; testId?: string }) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div class="popover card" role="dialog" aria-label={title} data-testid={testId}>
      <header class="popover-head">
        <h2>{title}</h2>
        <button type="button" class="icon-button" aria-label="Close" onClick={onClose}>✕</button>
      </header>
      {children}
    </div>
  );
}
