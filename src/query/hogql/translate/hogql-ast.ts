// The parts of PostHog's HogQL AST (the parser's JSON) the translator reads. Every node has a
// `node` name; the parser's output is untrusted data, so readers check what they rely on.
export interface HogQLNode {
  readonly node: string;
  readonly [key: string]: unknown;
}

export const isNode = (value: unknown): value is HogQLNode =>
  typeof value === 'object' && value !== null && typeof (value as { node?: unknown }).node === 'string';

/** A child node, or undefined when absent (null in the parser's JSON). */
export function child(node: HogQLNode, key: string): HogQLNode | undefined {
  const value = node[key];
  return isNode(value) ? value : undefined;
}

/** A list of child nodes ([] when absent). */
export function children(node: HogQLNode, key: string): HogQLNode[] {
  const value = node[key];
  return Array.isArray(value) ? value.filter(isNode) : [];
}

/** A field chain: strings, and numbers for tuple or array positions. */
export function chainOf(node: HogQLNode): (string | number)[] {
  const chain = node['chain'];
  return Array.isArray(chain) ? chain.filter((c): c is string | number => typeof c === 'string' || typeof c === 'number') : [];
}
