// The node under the cursor, PostHog's way (autocomplete.py's GetNodeAtPositionTraverser): every
// node is visited parents first, and the last one whose range holds the selection wins, with its
// parent node and the innermost SELECT around it. The parser's depth limits bound the recursion.
import { isNode, type HogQLNode } from '../hogql/translate/hogql-ast.js';

export interface NodeAtPosition {
  readonly node: HogQLNode | null;
  readonly parent: HogQLNode | null;
  readonly nearestSelect: HogQLNode | null;
}

export const offsetOf = (value: unknown): number | null => {
  const offset = value && typeof value === 'object' ? (value as { offset?: unknown }).offset : undefined;
  return typeof offset === 'number' ? offset : null;
};

export function nodeAtPosition(root: HogQLNode, start: number, end: number): NodeAtPosition {
  let found: NodeAtPosition = { node: null, parent: null, nearestSelect: null };
  const stack: HogQLNode[] = [];
  const selects: HogQLNode[] = [];

  const visitValue = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visitValue);
    else if (isNode(value)) visit(value);
    // CTEs may come as a map of name to CTE.
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visitValue);
  };

  const visit = (node: HogQLNode): void => {
    const from = offsetOf(node['start']);
    const to = offsetOf(node['end']);
    if (from !== null && to !== null && start >= from && end <= to) {
      found = { node, parent: stack.at(-1) ?? null, nearestSelect: selects.at(-1) ?? null };
    }
    stack.push(node);
    const isSelect = node.node === 'SelectQuery';
    if (isSelect) selects.push(node);
    for (const [key, value] of Object.entries(node)) if (key !== 'start' && key !== 'end') visitValue(value);
    if (isSelect) selects.pop();
    stack.pop();
  };

  visit(root);
  return found;
}
