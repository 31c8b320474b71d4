// The notices PostHog's resolver adds for its editor's hovers (posthog/hogql/resolver.py): each
// field of a table with its type, and IN COHORT's cohort by the other half of its id and name with
// a fix. Found by walking the user's tree in the resolver's order (FROM and its joins, then SELECT,
// WHERE, PREWHERE, HAVING, GROUP BY, ORDER BY; a cohort before the field it tests) over the column
// types PostHog's schema gives; the query is never run. Columns of subqueries and CTEs, lazy joins
// and properties get no notice here.
import type { CohortDefinition } from '../cohorts/schema.js';
import { IN_COHORT_OPERATORS } from '../hogql/cohort-mentions.js';
import { chainOf, child, isNode, type HogQLNode } from '../hogql/translate/hogql-ast.js';
import { printString } from '../hogql/translate/print-hogql.js';
import type { HogQLNotice } from './notices.js';

/** PostHog's print_type of each table's database fields (StringJSON prints as JSON, StringArray as Array). */
const GROUP_COLUMNS = { index: 'Integer', key: 'String', created_at: 'DateTime', properties: 'JSON' };
const COLUMN_TYPES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  events: {
    uuid: 'String', event: 'String', properties: 'JSON', timestamp: 'DateTime', distinct_id: 'String', elements_chain: 'String',
    created_at: 'DateTime', $session_id: 'String', $window_id: 'String', person_id: 'String',
    $group_0: 'String', $group_1: 'String', $group_2: 'String', $group_3: 'String', $group_4: 'String',
    elements_chain_href: 'String', elements_chain_texts: 'Array', elements_chain_ids: 'Array', elements_chain_elements: 'Array',
  },
  persons: { id: 'String', created_at: 'DateTime', properties: 'JSON', is_identified: 'Boolean' },
  person_distinct_ids: { distinct_id: 'String', person_id: 'String' },
  groups: GROUP_COLUMNS,
  cohort_people: { person_id: 'String', cohort_id: 'Integer' },
  cohort_membership: { person_id: 'String', cohort_id: 'Integer' },
  numbers: { number: 'Integer' },
};

const offset = (value: unknown): number | null => {
  const at = value && typeof value === 'object' ? (value as { offset?: unknown }).offset : undefined;
  return typeof at === 'number' ? at : null;
};

/** The tables one SELECT reads by name: alias (or name) to its column types. */
function scopeOf(select: HogQLNode): Map<string, Readonly<Record<string, string>>> {
  const scope = new Map<string, Readonly<Record<string, string>>>();
  for (let join = child(select, 'select_from'); join; join = child(join, 'next_join')) {
    const table = child(join, 'table');
    const name = table?.node === 'Field' ? chainOf(table).join('.') : table?.node === 'Call' ? String(table['name']) : '';
    const columns = COLUMN_TYPES[name];
    if (columns) scope.set(typeof join['alias'] === 'string' ? join['alias'] : name, columns);
  }
  return scope;
}

export class HoverNotices {
  readonly notices: HogQLNotice[] = [];
  private readonly scopes: Map<string, Readonly<Record<string, string>>>[] = [];

  constructor(private readonly cohorts: ReadonlyMap<number, CohortDefinition>, private readonly cohortNames: ReadonlyMap<string, number>) {}

  visit(node: unknown): void {
    if (Array.isArray(node)) return node.forEach((item) => this.visit(item));
    if (!isNode(node)) return;
    if (node.node === 'SelectQuery') return this.select(node);
    if (node.node === 'Field') return this.field(node);
    if (node.node === 'CompareOperation' && IN_COHORT_OPERATORS.has(String(node['op']))) {
      this.cohort(child(node, 'right'));
      return this.visit(node['left']);
    }
    for (const [key, value] of Object.entries(node)) if (key !== 'start' && key !== 'end') this.visit(value);
  }

  private select(node: HogQLNode): void {
    this.visit(node['ctes']);
    this.scopes.push(scopeOf(node));
    for (let join = child(node, 'select_from'); join; join = child(join, 'next_join')) {
      const table = child(join, 'table');
      if (table && table.node !== 'Field') this.visit(table);
      this.visit(join['constraint']);
    }
    for (const key of ['select', 'where', 'prewhere', 'having', 'group_by', 'order_by']) this.visit(node[key]);
    this.scopes.pop();
  }

  /** A field of one of the SELECT's tables: `col` when exactly one table has it, or `alias.col`. */
  private field(node: HogQLNode): void {
    const scope = this.scopes[this.scopes.length - 1];
    const chain = chainOf(node);
    if (!scope || chain.length === 0 || chain.length > 2) return;
    let type: string | undefined;
    const name = String(chain[chain.length - 1]);
    if (chain.length === 2) type = scope.get(String(chain[0]))?.[name];
    else {
      if (scope.has(name)) return;
      const found = [...scope.values()].map((columns) => columns[name]).filter((t) => t !== undefined);
      type = found.length === 1 ? found[0] : undefined;
    }
    const start = offset(node['start']);
    const end = offset(node['end']);
    if (type && start !== null && end !== null) this.notices.push({ message: `Field '${name}' is of type '${type}'`, start, end, fix: null });
  }

  private cohort(right: HogQLNode | undefined): void {
    if (right?.node !== 'Constant') return this.visit(right);
    const start = offset(right['start']);
    const end = offset(right['end']);
    const value = right['value'];
    if (typeof value === 'number') {
      const cohort = this.cohorts.get(value);
      if (!cohort) return;
      const name = printString(cohort.name);
      this.notices.push({ message: `Cohort #${cohort.id} can also be specified as ${name}`, start, end, fix: cohort.name ? name : null });
    } else if (typeof value === 'string') {
      const id = this.cohortNames.get(value);
      if (id === undefined) return;
      this.notices.push({ message: `Searching for cohort by name. Replace with numeric ID ${id} to protect against renaming.`, start, end, fix: String(id) });
    }
  }
}

/** The hover notices of a statement: a SELECT, a set of them, or an expression inside its source's SELECT. */
export function hoverNotices(root: HogQLNode, cohorts: ReadonlyMap<number, CohortDefinition>, cohortNames: ReadonlyMap<string, number>): HogQLNotice[] {
  const walker = new HoverNotices(cohorts, cohortNames);
  walker.visit(root);
  return walker.notices;
}
