// One walk over plain-data trees (Hoglet's query AST, PostHog's parsed AST, query nodes from
// JSON), iterative so a deep tree cannot overflow the stack.

/** What a visit says: go on into this object's children, skip them, or stop the whole walk. */
export type Visit = 'descend' | 'skip' | 'stop';

/**
 * Visits every object of the tree, parents before children (arrays are walked through, not
 * visited). Returns false when a visit stopped the walk.
 */
export function walkObjects(root: unknown, visit: (node: Record<string, unknown>) => Visit): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      stack.push(...value);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const node = value as Record<string, unknown>;
    const next = visit(node);
    if (next === 'stop') return false;
    if (next === 'descend') stack.push(...Object.values(node));
  }
  return true;
}
