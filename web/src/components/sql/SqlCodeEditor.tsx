// The editor box: CodeMirror fetched on first use (a separate chunk), a note while it loads.
// The editor owns its text: `text` is read once, when it is made (a new text from outside, an
// opened insight, remounts it with a new key). Echoing typed text back in from a render would
// race the keystrokes after it.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { EditorOptions, Notice, SqlEditorHandle } from './editor';

export type { Notice, SqlEditorHandle };

export function SqlCodeEditor({ project, text, onChange, onRun, onProblems, metadataFields, onReady }: Omit<EditorOptions, 'doc'> & {
  text: string;
  onReady?: (handle: SqlEditorHandle) => void;
}) {
  const box = useRef<HTMLDivElement>(null);
  const handle = useRef<SqlEditorHandle | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  const [ready, setReady] = useState(false);
  // The editor's callbacks read the latest props, not the ones of the first render.
  const latest = useRef({ text, onChange, onRun, onProblems, metadataFields });
  latest.current = { text, onChange, onRun, onProblems, metadataFields };

  useEffect(() => {
    let cancelled = false;
    import('./editor')
      .then(({ createSqlEditor }) => {
        if (cancelled || !box.current) return;
        handle.current = createSqlEditor(box.current, {
          project,
          doc: latest.current.text,
          onChange: (t) => latest.current.onChange(t),
          onRun: () => latest.current.onRun(),
          onProblems: (n) => latest.current.onProblems(n),
          metadataFields: () => latest.current.metadataFields(),
        });
        setReady(true);
        onReady?.(handle.current);
      })
      .catch((e) => setFailed(String(e)));
    return () => {
      cancelled = true;
      handle.current?.destroy();
      handle.current = null;
    };
  }, [project]);


  return (
    <div class="sql-editor" data-testid="sql-editor">
      <div ref={box} class="sql-editor-box" />
      {!ready && !failed && <p class="muted sql-editor-loading">Loading the editor…</p>}
      {failed && <p class="error" role="alert">The editor could not be loaded ({failed}).</p>}
    </div>
  );
}
