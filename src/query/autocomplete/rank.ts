// PostHog ranks the function completions on one side of a comparison by how their result fits the
// other side (autocomplete.py's expected_type_at_position and _function_sort_text): sortText is
// `2-<bucket>-<name>`, the bucket 0 for the same type, 1 for a cheap cast (numbers among
// themselves), 2 when either type is unknown, 3 for an expensive cast (text against a number or a
// time), 4 for incompatible types. Without a comparison nothing is ranked. Hoglet knows the result
// of fewer functions than PostHog (translate/calls.ts's resultType: times, counts), so more of
// them sit in the middle bucket.
import { lookupHogQLFunction } from '../hogql/functions/index.js';
import { resultType } from '../hogql/translate/calls.js';
import { chainOf, type HogQLNode } from '../hogql/translate/hogql-ast.js';
import type { HogQLType } from '../hogql/translate/types.js';
import type { TableSpec } from './schema.js';

const FAMILY_OF_DISPLAY: Readonly<Record<string, HogQLType>> = {
  String: 'string', DateTime: 'datetime', Int64: 'integer', Float64: 'float', Boolean: 'boolean', UUID: 'uuid', JSON: 'json',
};

const NUMERIC: ReadonlySet<HogQLType> = new Set(['integer', 'float', 'boolean']);

function familyOfDisplay(display: string): HogQLType {
  const inner = /^Nullable\((.*)\)$/.exec(display)?.[1] ?? display;
  return FAMILY_OF_DISPLAY[inner] ?? 'unknown';
}

/** A field chain's type in `table` (the chain may start with the table's alias). */
function fieldFamily(chain: (string | number)[], table: TableSpec): HogQLType {
  for (const path of [chain, chain.slice(1)]) {
    let current: TableSpec = table;
    for (const [index, part] of path.entries()) {
      const spec = Object.hasOwn(current.fields, String(part)) ? current.fields[String(part)] : undefined;
      if (!spec) break;
      if (spec.kind === 'table') current = spec.table();
      else return index === path.length - 1 ? familyOfDisplay(spec.type) : spec.properties ? 'string' : 'unknown';
    }
  }
  return 'unknown';
}

function familyOf(node: HogQLNode, table: TableSpec): HogQLType {
  if (node.node === 'Field') return fieldFamily(chainOf(node), table);
  if (node.node === 'Constant') {
    const value = node['value'];
    if (typeof value === 'string') return 'string';
    if (typeof value === 'boolean') return 'boolean';
    if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'float';
    return 'unknown';
  }
  if (node.node === 'Call' && typeof node['name'] === 'string') {
    const found = lookupHogQLFunction(node['name']);
    return found ? resultType(found.fn.clickhouse) : 'unknown';
  }
  return 'unknown';
}

/** The type the word under the cursor is compared with, or null outside a comparison (or when unknown). */
export function expectedType(node: HogQLNode, parent: HogQLNode | null, table: TableSpec): HogQLType | null {
  if (parent?.node !== 'CompareOperation') return null;
  const other = parent['right'] === node ? parent['left'] : parent['right'];
  if (other === node || other === null || typeof other !== 'object') return null;
  const family = familyOf(other as HogQLNode, table);
  return family === 'unknown' ? null : family;
}

function bucket(expected: HogQLType, actual: HogQLType): string {
  if (actual === 'unknown') return '2';
  if (actual === expected) return '0';
  if (NUMERIC.has(actual) && NUMERIC.has(expected)) return '1';
  if (actual === 'string' || expected === 'string') return '3';
  return '4';
}

/** The sortText of function `name` where a value of type `expected` is wanted. */
export function functionSortText(name: string, expected: HogQLType): string {
  const found = lookupHogQLFunction(name);
  return `2-${bucket(expected, found ? resultType(found.fn.clickhouse) : 'unknown')}-${name}`;
}
