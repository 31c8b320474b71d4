// How many events the steps as they stand match in the last 30 days, asked again (debounced) as
// they change: a trend of the steps as an OR of property groups, through /query/.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { num } from '../../lib/format';
import { runQuery } from '../../lib/run';
import { COUNT_DAYS, cleanStep, countQuery, totalOf, type ActionStep } from './steps';

const DEBOUNCE_MS = 400;

export function MatchCount({ project, steps }: { project: string; steps: ActionStep[] }) {
  const [count, setCount] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  // Only what is saved counts: blank fields and half-typed filters do not change the question.
  const key = JSON.stringify(steps.map(cleanStep));
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    const timer = setTimeout(() => {
      const cleaned = JSON.parse(key) as ActionStep[];
      if (cleaned.length === 0) { setCount(0); setError(null); setLoading(false); return; }
      runQuery(project, countQuery(cleaned), controller.signal)
        .then((answer) => { setCount(totalOf(answer)); setError(null); setLoading(false); })
        .catch((e) => {
          if ((e as Error).name === 'AbortError') return;
          setError(e instanceof ApiError ? e.message : String(e));
          setLoading(false);
        });
    }, DEBOUNCE_MS);
    return () => { clearTimeout(timer); controller.abort(); };
  }, [project, key]);
  return (
    <p class="action-count" data-testid="action-count" aria-live="polite" aria-busy={loading} data-state={loading ? 'loading' : 'ready'} data-value={count ?? undefined}>
      {error
        ? <span class="error">The count failed: {error}</span>
        : count === null
          ? <span class="muted">Counting matching events…</span>
          : <>This action matches <strong>{num(count)}</strong> {count === 1 ? 'event' : 'events'} in the last {COUNT_DAYS} days.</>}
    </p>
  );
}
