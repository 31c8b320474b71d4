// A background calculation under way: an indeterminate bar, the time it has taken, and Cancel.
import { useEffect, useState } from 'preact/hooks';

export function Progress({ since, onCancel, label = 'Refreshing in the background' }: { since: number; onCancel?: () => void; label?: string }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.max(0, Math.floor((now - since) / 1000));
  return (
    <div class="progress-note" role="status" data-testid="refresh-progress">
      <progress aria-label={label} />
      <span>{label}… {seconds > 0 ? `${seconds}s` : ''}</span>
      {onCancel && <button type="button" class="link-button" onClick={onCancel}>Cancel</button>}
    </div>
  );
}
