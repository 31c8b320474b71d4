// The session replay pages as one chunk of their own: the main bundle carries only these loaders
// (the player's rrweb is a further chunk, loaded when a recording opens).
import { useEffect, useState } from 'preact/hooks';

type Pages = typeof import('./ReplayPages');
let loading: Promise<Pages> | null = null;

function usePages(): { pages: Pages | null; failed: string | null } {
  const [pages, setPages] = useState<Pages | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    loading ??= import('./ReplayPages');
    loading.then(setPages).catch((e) => { loading = null; setFailed(String(e)); });
  }, []);
  return { pages, failed };
}

export function LazyRecordingsPage(props: { project: string }) {
  const { pages, failed } = usePages();
  if (failed) return <p class="error" role="alert">Session replay could not be loaded ({failed}).</p>;
  return pages ? <pages.RecordingsPage {...props} /> : <p class="muted">Loading…</p>;
}

export function LazyRecordingPage(props: { project: string; sessionId: string }) {
  const { pages, failed } = usePages();
  if (failed) return <p class="error" role="alert">Session replay could not be loaded ({failed}).</p>;
  return pages ? <pages.RecordingPage {...props} /> : <p class="muted">Loading…</p>;
}
