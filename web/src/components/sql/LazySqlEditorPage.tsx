// The SQL editor page as its own chunk: the main bundle carries only this loader (and the SQL
// table and chart that insight pages and tiles draw); the editor's CodeMirror is a further chunk.
import { useEffect, useState } from 'preact/hooks';
import type { SqlEditorPage } from '../../pages/SqlEditorPage';

type Page = typeof SqlEditorPage;
let loading: Promise<Page> | null = null;

export function LazySqlEditorPage(props: { project: string; openInsight: string | null }) {
  const [Page, setPage] = useState<Page | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    loading ??= import('../../pages/SqlEditorPage').then((m) => m.SqlEditorPage);
    loading.then((p) => setPage(() => p)).catch((e) => { loading = null; setFailed(String(e)); });
  }, []);
  if (failed) return <p class="error" role="alert">The SQL editor could not be loaded ({failed}).</p>;
  return Page ? <Page {...props} /> : <p class="muted">Loading the SQL editor…</p>;
}
