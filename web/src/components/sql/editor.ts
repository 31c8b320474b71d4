// The CodeMirror 6 editor for HogQL, loaded on demand (import('./editor')) so the app's main
// bundle carries none of it. Highlighting writes tok-* classes (classHighlighter), completions come
// from the server's HogQLAutocomplete and problems from its HogQLMetadata; a server that answers
// neither leaves a plain editor that still runs.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { sql } from '@codemirror/lang-sql';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { linter, lintKeymap, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, Prec } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import { api } from '../../api';

/** A HogQLMetadata error, warning or notice: [start, end) are offsets into the query text. */
export interface Notice {
  message: string;
  start?: number | null;
  end?: number | null;
  fix?: string | null;
  severity?: 'error' | 'warning' | 'info';
}

export interface EditorOptions {
  project: string;
  doc: string;
  onChange: (text: string) => void;
  onRun: () => void;
  /** The HogQLMetadata answer for the text now in the editor (null: the server could not say). */
  onProblems: (notices: Notice[] | null) => void;
  /** The HogQLQuery fields the metadata check should see too (the {filters} placeholder's values). */
  metadataFields: () => Record<string, unknown>;
}

export interface SqlEditorHandle {
  /** Marks a run's errors in the text they came from (the next check replaces them). */
  showNotices(notices: Notice[]): void;
  focus(): void;
  destroy(): void;
}

/** PostHog's (Monaco's) suggestion kinds as CodeMirror's completion types, for their icons. */
const KINDS: Record<string, string> = {
  Function: 'function', Method: 'method', Field: 'property', Property: 'property', Variable: 'variable',
  Class: 'class', Struct: 'class', Module: 'namespace', Keyword: 'keyword', Constant: 'constant',
  Value: 'constant', Enum: 'enum', EnumMember: 'enum', TypeParameter: 'type', Event: 'variable',
};

interface Suggestion { label: string; insertText?: string; kind?: string; detail?: string | null; documentation?: string | null }

function completionSource(project: string) {
  return async (context: CompletionContext): Promise<CompletionResult | null> => {
    const word = context.matchBefore(/[\w$]*/);
    if (!word) return null;
    const before = context.state.sliceDoc(Math.max(0, word.from - 1), word.from);
    // Typing a name, or right after a dot (properties.|), or Ctrl+Space.
    if (!context.explicit && word.from === word.to && before !== '.') return null;
    const controller = new AbortController();
    context.addEventListener('abort', () => controller.abort());
    try {
      const answer = await api<{ suggestions?: Suggestion[]; incomplete_list?: boolean }>(`/api/projects/${project}/query/`, {
        method: 'POST',
        signal: controller.signal,
        body: { query: { kind: 'HogQLAutocomplete', language: 'hogQL', query: context.state.doc.toString(), startPosition: word.from, endPosition: context.pos } },
      });
      const options: Completion[] = (answer?.suggestions ?? []).map((s) => ({
        label: s.label,
        apply: s.insertText ?? s.label,
        type: KINDS[s.kind ?? ''] ?? 'text',
        detail: s.detail ?? undefined,
        info: s.documentation ?? undefined,
      }));
      return { from: word.from, options, validFor: answer?.incomplete_list ? undefined : /^[\w$]*$/ };
    } catch {
      // No HogQLAutocomplete on this server (or a request that failed): no list, no noise.
      return null;
    }
  };
}

const clampTo = (length: number, n: number | null | undefined, fallback: number) =>
  Math.max(0, Math.min(length, typeof n === 'number' ? n : fallback));

function toDiagnostics(notices: Notice[], length: number): Diagnostic[] {
  return notices.map((n) => {
    const from = clampTo(length, n.start, 0);
    const to = Math.max(from, clampTo(length, n.end, from === length ? length : from + 1));
    return { from, to, severity: n.severity ?? 'error', message: n.fix ? `${n.message} (${n.fix})` : n.message };
  });
}

function metadataLinter(options: EditorOptions) {
  return async (view: EditorView): Promise<Diagnostic[]> => {
    const text = view.state.doc.toString();
    if (!text.trim()) { options.onProblems([]); return []; }
    try {
      const answer = await api<{ errors?: Notice[]; warnings?: Notice[] }>(`/api/projects/${options.project}/query/`, {
        method: 'POST',
        body: { query: { kind: 'HogQLMetadata', language: 'hogQL', query: text, ...options.metadataFields() } },
      });
      // The text changed while the server checked: this answer is for another query.
      if (view.state.doc.toString() !== text) return [];
      const notices: Notice[] = [
        ...(answer?.errors ?? []).map((n) => ({ ...n, severity: 'error' as const })),
        ...(answer?.warnings ?? []).map((n) => ({ ...n, severity: 'warning' as const })),
      ];
      options.onProblems(notices);
      return toDiagnostics(notices, text.length);
    } catch {
      options.onProblems(null);
      return [];
    }
  };
}

export function createSqlEditor(parent: HTMLElement, options: EditorOptions): SqlEditorHandle {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        Prec.highest(keymap.of([{ key: 'Mod-Enter', run: () => { options.onRun(); return true; } }])),
        lineNumbers(),
        history(),
        drawSelection(),
        highlightActiveLine(),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        sql(),
        syntaxHighlighting(classHighlighter),
        autocompletion({ override: [completionSource(options.project)], activateOnTyping: true }),
        linter(metadataLinter(options), { delay: 300 }),
        placeholder('select event, count() from events group by event'),
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap]),
        EditorView.lineWrapping,
        EditorView.contentAttributes.of({ 'aria-label': 'SQL query' }),
        EditorView.updateListener.of((update) => { if (update.docChanged) options.onChange(update.state.doc.toString()); }),
      ],
    }),
  });
  return {
    showNotices(notices) {
      view.dispatch(setDiagnostics(view.state, toDiagnostics(notices, view.state.doc.length)));
    },
    focus: () => view.focus(),
    destroy: () => view.destroy(),
  };
}
