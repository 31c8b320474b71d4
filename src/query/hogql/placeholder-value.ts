// The value a `{name}` placeholder stands for, read before translation by the passes that collect
// what a query names (IN COHORT, matchesAction) so the query context can load it first.
import type { HogQLNode } from './translate/hogql-ast.js';

/** The value of the query's `values` a Placeholder node names, else undefined. */
export function placeholderValue(node: HogQLNode, values: Readonly<Record<string, unknown>>): unknown {
  const inner = node['expr'] as HogQLNode | undefined;
  const chain = inner?.node === 'Field' && Array.isArray(inner['chain']) ? inner['chain'] : [];
  return chain.length === 1 && Object.hasOwn(values, String(chain[0])) ? values[String(chain[0])] : undefined;
}
