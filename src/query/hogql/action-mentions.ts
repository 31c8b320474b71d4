// The actions a HogQL query names with matchesAction(id) or matchesAction('name'), found before the
// run so the query context can carry their steps; the translator then reads them from there.
import type { HogQLNode } from './translate/hogql-ast.js';
import { walkObjects } from '../tree/walk.js';
import { sharedHogQLParser } from './parse/index.js';
import { placeholderValue } from './placeholder-value.js';

export interface HogQLActionMentions {
  readonly ids: number[];
  readonly names: string[];
}

/** The action ids and names matchesAction is called with in a HogQL SELECT: constants, or placeholders' values. */
export async function actionMentionsIn(text: string, projectId: number, values: Readonly<Record<string, unknown>> = {}): Promise<HogQLActionMentions> {
  if (!/matchesAction/.test(text)) return { ids: [], names: [] };
  return actionMentionsInNodes([await sharedHogQLParser().parse('select', text, projectId)], values);
}

/** The same, in HogQL already parsed (an insight's expressions: QueryContext.hogql). */
export function actionMentionsInNodes(roots: readonly unknown[], values: Readonly<Record<string, unknown>> = {}): HogQLActionMentions {
  const ids = new Set<number>();
  const names = new Set<string>();
  walkObjects(roots, (node) => {
    if (node.node === 'Call' && node.name === 'matchesAction' && Array.isArray(node.args) && node.args.length === 1) {
      const arg = node.args[0] as HogQLNode;
      const value = arg.node === 'Constant' ? arg['value'] : arg.node === 'Placeholder' ? placeholderValue(arg, values) : undefined;
      if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) ids.add(value);
      if (typeof value === 'string') names.add(value);
    }
    return 'descend';
  });
  return { ids: [...ids], names: [...names] };
}
