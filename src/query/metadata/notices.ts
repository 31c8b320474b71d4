// A refusal as PostHog's HogQLNotice ({message, start, end, fix}): the positions are offsets in the
// text the user typed. The parser gives them for syntax errors; for the translator's refusals they
// are found on the node the message names (the first field or call of that name in the text).
import { ApiError } from '../../errors.js';
import { HogQLSyntaxError } from '../hogql/parse/index.js';
import { chainOf, isNode, type HogQLNode } from '../hogql/translate/hogql-ast.js';

export interface HogQLNotice {
  readonly message: string;
  readonly start: number | null;
  readonly end: number | null;
  readonly fix: string | null;
}

const offsetOf = (value: unknown): number | null => {
  const offset = value && typeof value === 'object' ? (value as { offset?: unknown }).offset : undefined;
  return typeof offset === 'number' ? offset : null;
};

/** The first node, in the text's order, that `matches`. */
function findNode(root: HogQLNode, matches: (node: HogQLNode) => boolean): HogQLNode | null {
  let best: HogQLNode | null = null;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const item = stack.pop();
    if (item === null || typeof item !== 'object') continue;
    if (isNode(item) && matches(item)) {
      const at = offsetOf(item['start']);
      if (at !== null && (best === null || at < (offsetOf(best['start']) ?? Infinity))) best = item;
    }
    stack.push(...Object.values(item));
  }
  return best;
}

/** Where the translator's message points: the field it could not resolve, the call it refused. */
function locate(message: string, root: HogQLNode | null): HogQLNode | null {
  if (!root) return null;
  const field = /^Unable to resolve field: (.+)$/.exec(message);
  if (field) return findNode(root, (n) => n.node === 'Field' && chainOf(n).join('.') === field[1]);
  const table = /^Unknown table `([^`]+)`/.exec(message);
  if (table) return findNode(root, (n) => n.node === 'Field' && chainOf(n).join('.') === table[1]);
  const call = /^(?:Unsupported function call|Function|Aggregation) '([^'(]+)/.exec(message);
  if (call) return findNode(root, (n) => n.node === 'Call' && n['name'] === call[1]);
  return null;
}

/** The parser's own message, without the line and column Hoglet's 400 adds for people. */
const parserMessage = (detail: string) => detail.replace(/^Syntax error(?: at line \d+, column \d+)?: /, '');

/**
 * The notice for an error of checking `root` (the user's tree, when it was parsed). Errors that
 * are not exposed say only their kind, as PostHog's do outside DEBUG.
 */
export function errorNotice(error: unknown, root: HogQLNode | null): HogQLNotice {
  if (error instanceof HogQLSyntaxError) {
    let message = parserMessage(error.detail);
    if (message.includes("mismatched input '<EOF>' expecting")) message = 'Unexpected end of query';
    const start = error.start?.offset ?? null;
    const end = error.end?.offset ?? null;
    const swapped = start !== null && end !== null && end < start;
    return { message, start: swapped ? end : start, end: swapped ? start : end, fix: null };
  }
  if (error instanceof ApiError) {
    const node = locate(error.detail, root);
    const start = offsetOf(node?.['start']);
    const hint = /Perhaps you meant '([^']+)\(\.\.\.\)'\?$/.exec(error.detail);
    // A hint replaces the function's name, so the marked range is the name alone.
    const name = node?.node === 'Call' && start !== null ? String(node['name']).length : null;
    return { message: error.detail, start, end: name !== null ? start! + name : offsetOf(node?.['end']), fix: hint ? hint[1]! : null };
  }
  return { message: `Unexpected ${error instanceof Error ? error.constructor.name : 'error'}`, start: null, end: null, fix: null };
}
