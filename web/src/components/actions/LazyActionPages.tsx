// The actions pages as chunks of their own: the main bundle carries only these loaders.
import { useEffect, useState } from 'preact/hooks';
import type { ActionEditPage } from '../../pages/ActionEditPage';
import type { ActionsPage } from '../../pages/ActionsPage';

function useChunk<T>(load: () => Promise<T>, cache: { promise: Promise<T> | null }): { page: T | null; failed: string | null } {
  const [page, setPage] = useState<T | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    cache.promise ??= load();
    cache.promise.then((p) => setPage(() => p)).catch((e) => { cache.promise = null; setFailed(String(e)); });
  }, []);
  return { page, failed };
}

const listChunk: { promise: Promise<typeof ActionsPage> | null } = { promise: null };
const editChunk: { promise: Promise<typeof ActionEditPage> | null } = { promise: null };

export function LazyActionsPage(props: { project: string }) {
  const { page: Page, failed } = useChunk(() => import('../../pages/ActionsPage').then((m) => m.ActionsPage), listChunk);
  if (failed) return <p class="error" role="alert">The actions page could not be loaded ({failed}).</p>;
  return Page ? <Page {...props} /> : <p class="muted">Loading…</p>;
}

export function LazyActionEditPage(props: { project: string; id?: string }) {
  const { page: Page, failed } = useChunk(() => import('../../pages/ActionEditPage').then((m) => m.ActionEditPage), editChunk);
  if (failed) return <p class="error" role="alert">The action page could not be loaded ({failed}).</p>;
  return Page ? <Page {...props} /> : <p class="muted">Loading…</p>;
}
