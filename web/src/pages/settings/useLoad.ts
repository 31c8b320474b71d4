// Loads a resource, reloads it on demand, and keeps the error to show.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../../api';

export const message = (e: unknown) => (e instanceof ApiError ? e.message : String(e));

export function useLoad<T>(path: string) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(() => {
    api<T>(path).then((d) => { setData(d); setError(null); }).catch((e) => setError(message(e)));
  }, [path]);
  useEffect(reload, [reload]);
  return { data, error, reload };
}
