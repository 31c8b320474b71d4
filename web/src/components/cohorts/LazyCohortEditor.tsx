// The cohort editor as a chunk of its own: the main bundle carries only this loader.
import { useEffect, useState } from 'preact/hooks';
import type { CohortEditor } from './CohortEditor';

type Editor = typeof CohortEditor;
let chunk: Promise<Editor> | null = null;

export function LazyCohortEditor(props: Parameters<Editor>[0]) {
  const [Editor, setEditor] = useState<Editor | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    chunk ??= import('./CohortEditor').then((m) => m.CohortEditor);
    chunk.then((e) => setEditor(() => e)).catch((e) => { chunk = null; setFailed(String(e)); });
  }, []);
  if (failed) return <p class="error" role="alert">The cohort editor could not be loaded ({failed}).</p>;
  return Editor ? <Editor {...props} /> : <p class="muted">Loading…</p>;
}
