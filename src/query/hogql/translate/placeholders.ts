// `{name}` placeholders (HogQLQuery.values), `{filters}` over the SELECT's table, and
// `{filters.dateRange.from}` / `.to` (TRUE in place of the comparison when the range leaves it open).
import { binary, constant } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { InternalError } from '../../../errors.js';
import { HogQLQueryError } from '../errors.js';
import { GROUPS_TABLES } from './from.js';
import { chainOf, child, type HogQLNode } from './hogql-ast.js';
import { constantOf } from './literals.js';
import { groupRowsSource, personRowsSource, SESSION_ROWS_SOURCE, SESSION_TEST_ACCOUNT_SOURCE, sessionFilterField } from './property-sources.js';
import type { Scope, Translator } from './scope.js';
import { SessionsTable } from './sessions.js';
import type { FilterTarget } from './translate.js';

/** A comparison, or TRUE when a date-range placeholder in it has no bound (PostHog's `true = true`). */
export function comparison(t: Translator, translate: () => Expr): Expr {
  const frame = { skip: false };
  t.comparisons.push(frame);
  try {
    const expr = translate();
    return frame.skip ? constant(true) : expr;
  } finally {
    t.comparisons.pop();
  }
}

/** The `values` entry a plain `{name}` placeholder names (undefined for any other). */
export function placeholderValue(t: Translator, node: HogQLNode): unknown {
  const inner = child(node, 'expr');
  const chain = inner?.node === 'Field' ? chainOf(inner) : [];
  const name = String(chain[0]);
  return chain.length === 1 && Object.hasOwn(t.context.values, name) ? t.context.values[name] : undefined;
}

export function placeholder(t: Translator, node: HogQLNode, scope: Scope): Expr {
  const inner = child(node, 'expr');
  const chain = inner?.node === 'Field' ? chainOf(inner) : [];
  const name = chain.join('.');
  if (chain.length > 1 && chain[0] === 'filters') return filterDatePlaceholder(t, name);
  if (name === 'filters') {
    const target = filterTarget(t, scope);
    if (!target) throw new HogQLQueryError("Cannot use 'filters' placeholder in a SELECT clause that does not select from the events, sessions, logs, traces or groups table.");
    return t.context.filters?.(target) ?? constant(true);
  }
  if (chain.length === 1 && Object.hasOwn(t.context.values, name)) return constantOf(t.context.values[name]);
  // PostHog's two messages: no values at all, or values that do not include this one.
  const given = Object.keys(t.context.values);
  // A placeholder holding an expression, not a name (`a -> { print(2) }`): PostHog's printer has no field to name.
  if (!name) throw new HogQLQueryError('You can not use placeholders here');
  if (given.length === 0) throw new HogQLQueryError(`Unresolved placeholder: {${name}}`);
  throw new HogQLQueryError(`Placeholder {${name}} is not available in this context. You can use the following: ${given.join(', ')}`);
}

/** `{filters.dateRange.from}` and `{filters.dateRange.to}`, PostHog's only other `filters` placeholders. */
function filterDatePlaceholder(t: Translator, name: string): Expr {
  if (name !== 'filters.dateRange.from' && name !== 'filters.dateRange.to') {
    throw new HogQLQueryError(`Unsupported filters placeholder \`{${name}}\`. Supported filters placeholders are: \`{filters}\`, \`{filters.dateRange.from}\`, \`{filters.dateRange.to}\`.`);
  }
  const bound = t.context.filterDate?.(name.endsWith('from') ? 'from' : 'to');
  if (bound) return bound;
  const open = t.comparisons.at(-1);
  if (!open) {
    throw new HogQLQueryError(`The \`{${name}}\` placeholder must be used directly in a comparison (e.g. \`timestamp > {${name}}\`), not nested inside a function call, when the date range is not set.`);
  }
  open.skip = true;
  return constant(true);
}

/** What `{filters}` reads in this SELECT: its events table, else its persons table; HogQL filters read in this scope. */
function filterTarget(t: Translator, scope: Scope): FilterTarget | undefined {
  const hogqlExpr = (text: string): Expr => {
    const parsed = t.context.hogql?.get(text);
    if (!parsed) throw new InternalError('hogql_unparsed', 'a HogQL filter of the query was not parsed before the run');
    return t.expr(parsed, scope);
  };
  const tables = [...scope.tables.values()];
  const eventsTable = tables.find((x) => x.events);
  const events = eventsTable?.events;
  if (events) {
    return {
      events,
      properties: {
        // PostHog's session filter over events reads `session.<key>`.
        sessionProperty: (key) => sessionFilterField(eventsTable!.resolve(['session', key]), key),
        eventProperty: (key) => events.eventProperty(key),
        personProperty: (key) => events.personProperty(key),
        groupProperty: (index, key) => events.groupProperty(index, key),
        hogqlExpr,
        inCohort: (id) => binary('IN', events.personId(), t.cohortMembers(id)),
      },
    };
  }
  const groups = tables.find((x) => GROUPS_TABLES.has(x));
  if (groups && !tables.some((x) => x instanceof SessionsTable)) {
    return { groupCreatedAt: groups.resolve(['created_at'])!, properties: groupRowsSource(groups.resolve(['properties'])!, hogqlExpr) };
  }
  const sessions = tables.find((x) => x instanceof SessionsTable);
  if (sessions) {
    const sessionProperty = (key: string) => sessionFilterField(sessions.resolve([key]), key);
    return {
      sessionStart: sessions.resolve(['$start_timestamp'])!,
      properties: { ...SESSION_ROWS_SOURCE, sessionProperty },
      testAccountProperties: { ...SESSION_TEST_ACCOUNT_SOURCE, hogqlExpr },
    };
  }
  const personsTable = tables.find((x) => x.personProperties);
  const persons = personsTable?.personProperties;
  return persons ? { properties: personRowsSource(persons, personsTable!.personIdField!, hogqlExpr, t.cohortMembers) } : undefined;
}
