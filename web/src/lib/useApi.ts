// Loads something into state; a new load aborts the one before it.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  loading: boolean;
  reload: () => void;
  set: (data: T) => void;
}

/** Runs `load` whenever `deps` change (null: nothing to load), keeping the last answer meanwhile. */
export function useLoad<T>(load: ((signal: AbortSignal) => Promise<T>) | null, deps: readonly unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(load !== null);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (load === null) return;
    const controller = new AbortController();
    setLoading(true);
    setError(null);
    load(controller.signal)
      .then((answer) => { setData(answer); setLoading(false); })
      .catch((e) => {
        if ((e as Error).name === 'AbortError') return;
        setError(e instanceof ApiError ? e.message : String(e));
        setLoading(false);
      });
    return () => controller.abort();
  }, [...deps, load === null, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload, set: setData };
}

/** One API path (null: none yet). */
export function useApi<T>(path: string | null): Loaded<T> {
  return useLoad<T>(path === null ? null : (signal) => api<T>(path, { signal }), [path]);
}
