// A Call node: a function of the user allow-list (calls.ts) with PostHog's nesting rules, or one
// read specially: like() and kin as operators, count(*), matchesAction, arrayReduce.
import { call, constant, STAR } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import type { ActionDefinition } from '../../context.js';
import { actionExpr } from '../../filters/actions.js';
import { HogQLNotSupportedError, HogQLQueryError } from '../errors.js';
import { lookupHogQLFunction } from '../functions/index.js';
import { STRING_PARSERS } from '../property-types.js';
import { userCall } from './calls.js';
import { isStarField } from './fields.js';
import { children, isNode, type HogQLNode } from './hogql-ast.js';
import { placeholderValue } from './placeholders.js';
import type { Scope, Translator } from './scope.js';
import { typed } from './types.js';

const LIKE_CALLS: Record<string, string> = { like: 'like', notLike: 'not like', ilike: 'ilike', notILike: 'not ilike' };

const isCountStar = (name: string, args: readonly HogQLNode[]) => name.toLowerCase() === 'count' && args.length === 1 && isStarField(args[0]!);

export function functionCall(t: Translator, node: HogQLNode, scope: Scope): Expr {
  const name = String(node['name'] ?? '');
  if (node['filter_expr'] || node['order_by']) throw new HogQLNotSupportedError('FILTER and ORDER BY inside a function call');
  const argNodes = children(node, 'args');
  if (name === 'matchesAction') return matchesAction(t, argNodes, scope);
  // like(a, b) and its kin read as their operators, with PostHog's NULL handling (test_field_nullable_like, test_ilike_and_not_ilike_…).
  const operator = Object.hasOwn(LIKE_CALLS, name) ? LIKE_CALLS[name] : undefined;
  if (operator && argNodes.length === 2 && !node['params']) return t.expr({ node: 'CompareOperation', op: operator, left: argNodes[0], right: argNodes[1] }, scope);
  if (name === 'percentile_cont' || name === 'percentile_disc') {
    throw new HogQLQueryError(node['within_group'] ? `Aggregation '${name}' with WITHIN GROUP is not supported in ClickHouse dialect` : `Aggregation '${name}' requires WITHIN GROUP`);
  }
  if (name === 'arrayReduce') return arrayReduce(t, argNodes, scope);
  // count(*) counts rows; `*` anywhere else would read the stored columns themselves.
  if (isCountStar(name, argNodes)) return userCall({ name, args: [STAR], distinct: node['distinct'] === true }, t.context).call;
  const outerAsText = t.propertiesAsText;
  t.propertiesAsText = STRING_PARSERS.has(name);
  const match = lookupHogQLFunction(name);
  const aggregate = match?.family === 'aggregate';
  if (aggregate && t.aggregations.length > 0) throw new HogQLQueryError(`Aggregation '${name}' cannot be nested inside another aggregation '${t.aggregations[0]}'.`);
  // A template call writes its arguments into a larger expression: PostHog caps how deep they nest.
  const macro = match?.fn.expand !== undefined;
  if (macro) t.budget.openMacro(name);
  if (aggregate) t.aggregations.push(name);
  let args: Expr[];
  let params: Expr[] | undefined;
  try {
    args = argNodes.map((x) => t.expr(x, scope));
    params = Array.isArray(node['params']) ? node['params'].filter(isNode).map((x) => t.expr(x, scope)) : undefined;
  } finally {
    t.propertiesAsText = outerAsText;
    if (aggregate) t.aggregations.pop();
    if (macro) t.budget.closeMacro();
  }
  const resolved = userCall({ name, args, ...(params ? { params } : {}), distinct: node['distinct'] === true }, t.context);
  if (resolved.family === 'window') throw new HogQLQueryError(`Window function '${name}' needs an OVER clause`);
  return resolved.call;
}

/** `matchesAction(id)` / `matchesAction('name')`: the action's steps as a condition on this SELECT's events (PostHog's messages). */
function matchesAction(t: Translator, argNodes: HogQLNode[], scope: Scope): Expr {
  if (argNodes.length !== 1) throw new HogQLQueryError(`Function 'matchesAction' expects 1 argument, found ${argNodes.length}`);
  const arg = argNodes[0]!;
  if (arg.node !== 'Constant' && arg.node !== 'Placeholder') throw new HogQLQueryError('action() takes only constant arguments');
  const value = arg.node === 'Constant' ? arg['value'] : placeholderValue(t, arg);
  const actions = [...(t.context.actions?.values() ?? [])];
  let action: ActionDefinition | undefined;
  if (typeof value === 'number') {
    action = t.context.actions?.get(Math.trunc(value));
    if (!action) throw new HogQLQueryError(`Could not find an action with the ID ${value}`);
  } else if (typeof value === 'string') {
    action = actions.find((a) => a.name === value);
    if (!action) throw new HogQLQueryError(`Could not find an action with the name '${value}'`);
  } else {
    throw new HogQLQueryError('action() takes exactly one string or integer argument');
  }
  const events = [...scope.tables.values()].find((x) => x.events)?.events;
  if (!events) throw new HogQLQueryError('matchesAction() can only be used in a SELECT from the events table');
  return typed(actionExpr(action, events, t.context.timezone), 'boolean', false);
}

/** An argument as PostHog's messages name it: a constant by its type and value, anything else by its node. */
function describeArg(node: HogQLNode, value: unknown): string {
  if (node.node !== 'Constant' && node.node !== 'Placeholder') return node.node;
  const type = typeof value === 'number' ? (Number.isInteger(value) ? 'IntegerType' : 'FloatType') : typeof value === 'boolean' ? 'BooleanType' : value === null || value === undefined ? 'UnknownType' : 'ConstantType';
  return `${type} '${String(value)}'`;
}

/**
 * `arrayReduce('sum', arr)`: the aggregation's name must be a constant (or a `values` entry)
 * naming one of the allow-list's aggregations, checked here as PostHog's printer checks it.
 */
function arrayReduce(t: Translator, argNodes: HogQLNode[], scope: Scope): Expr {
  const [first, ...rest] = argNodes;
  if (!first) throw new HogQLQueryError("Missing arguments in function 'arrayReduce'");
  const value = first.node === 'Constant' ? first['value'] : first.node === 'Placeholder' ? placeholderValue(t, first) : undefined;
  if (typeof value !== 'string') throw new HogQLQueryError(`Expected constant string as first arg in function 'arrayReduce', got ${describeArg(first, value)}`);
  const match = lookupHogQLFunction(value);
  // ClickHouse reads the name itself: only an aggregation printed under its own name (not array_agg's groupArray).
  if (match?.family !== 'aggregate' || match.fn.clickhouse !== value || match.fn.expand || match.fn.minParams) throw new HogQLQueryError(`Invalid parametric function in 'arrayReduce', '${value}' is not supported.`);
  return call('arrayReduce', constant(match.fn.clickhouse), ...rest.map((x) => t.expr(x, scope)));
}
