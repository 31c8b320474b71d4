// The small interface the rest of Hoglet parses HogQL through, so the parser can be swapped (PostHog's
// hand-written Rust parser has no npm build yet; this one is its C++/WebAssembly parser).
import type { HogQLNode } from '../translate/hogql-ast.js';

export type ParseKind = 'select' | 'expr';

export interface HogQLParser {
  /**
   * PostHog's AST of the text (nodes keep their start/end positions), or a 400 saying why not. The
   * project whose request it is takes its turn for a parser worker fairly with other projects.
   */
  parse(kind: ParseKind, text: string, projectId: number): Promise<HogQLNode>;
  close(): Promise<void>;
}
