// A modal dialog over the page (PostHog opens "Show more" in one): a backdrop, a title and a close
// button; Escape or a click on the backdrop closes it.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export function Modal({ title, onClose, children, testId }: { title: string; onClose: () => void; children: ComponentChildren; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => { if (e.key === 'Escape') onClose(); };
    addEventListener('keydown', onKey);
    box.current?.focus();
    return () => removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div class="web-modal-backdrop" onClick={(e) => { if (e.target === e.currentTarget) onClose(); }}>
      <div class="web-modal card" role="dialog" aria-modal="true" aria-label={title} data-testid={testId} tabIndex={-1} ref={box}>
        <header class="popover-head">
          <h2>{title}</h2>
          <button type="button" class="icon-button" aria-label="Close" onClick={onClose}>✕</button>
        </header>
        <div class="web-modal-body">{children}</div>
      </div>
    </div>
  );
}
