// One HogQL expression node -> the query AST: constants, fields, operators, casts, indexes,
// IN COHORT, subqueries as values, HogQLX tags; calls, windows and placeholders in their own modules.
import { alias, and, array, binary, call, constant, lambda, not, or, select, STAR, subquery, tuple } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import { isPrintableIdentifier } from '../../printer/print.js';
import { IN_COHORT_OPERATORS } from '../cohort-mentions.js';
import { HogQLNotSupportedError, HogQLQueryError } from '../errors.js';
import { compare, compareInJoin } from './compare.js';
import { checkAlias, field, propertyPath } from './fields.js';
import { functionCall } from './function-call.js';
import { chainOf, child, children, isNode, type HogQLNode } from './hogql-ast.js';
import { constantOf } from './literals.js';
import { comparison, placeholder, placeholderValue } from './placeholders.js';
import type { CteMap, Scope, Translator } from './scope.js';
import { typed, typeOf } from './types.js';
import { windowCall } from './windows.js';

const ARITHMETIC: Record<string, string> = { '+': 'plus', '-': 'minus', '*': 'multiply', '/': 'divide', '%': 'modulo' };
const CASTS: Record<string, string> = {
  // Strict, as PostHog prints them (test_postgres_style_cast): a text that is no number is an error, not NULL.
  int: 'toInt64', integer: 'toInt64', float: 'toFloat64', double: 'toFloat64', 'double precision': 'toFloat64', real: 'toFloat64',
  string: 'toString', text: 'toString', varchar: 'toString', char: 'toString', date: 'toDate', datetime: 'toDateTime',
  timestamp: 'toDateTime', timestamptz: 'toDateTime', boolean: 'toBool', bool: 'toBool', uuid: 'toUUIDOrNull',
};

export function expr(t: Translator, node: HogQLNode, scope: Scope): Expr {
  t.budget.spend();
  const e = (x: HogQLNode | undefined) => {
    if (!x) throw new HogQLQueryError(`Incomplete ${node.node}`);
    return t.expr(x, scope);
  };
  const all = (key: string) => children(node, key).map((x) => t.expr(x, scope));
  switch (node.node) {
    case 'Constant':
      return constantOf(node['value']);
    case 'Field':
      // `*` as a value would read the stored columns themselves: only count(*) may name it (call()).
      if (chainOf(node).at(-1) === '*') throw new HogQLQueryError("Cannot use '*' here: select it, or name the fields");
      return field(t, node, scope);
    case 'Alias': {
      const name = String(node['alias']);
      checkAlias(name, scope);
      const inner = e(child(node, 'expr'));
      // Defined from here on, anywhere in the SELECT (ClickHouse's aliases are not scoped to a clause).
      scope.aliases.set(name, typeOf(inner));
      return typed(alias(inner, name), typeOf(inner).type, typeOf(inner).nullable);
    }
    case 'Call':
      return functionCall(t, node, scope);
    case 'ExprCall':
      throw new HogQLQueryError('You can only call simple functions in HogQL, not expressions');
    case 'Dict':
    case 'HogQLXTag':
      return hogqlx(t, node, scope);
    case 'CompareOperation':
      if (IN_COHORT_OPERATORS.has(String(node['op']))) return inCohort(t, node, scope);
      return comparison(t, () => (t.inJoinConstraint > 0 ? compareInJoin : compare)(String(node['op']), e(child(node, 'left')), compareRight(t, child(node, 'right'), scope)));
    case 'ArithmeticOperation': {
      const fn = ARITHMETIC[String(node['op'])];
      if (!fn) throw new HogQLQueryError(`Unsupported arithmetic operator: ${String(node['op'])}`);
      return call(fn, e(child(node, 'left')), e(child(node, 'right')));
    }
    case 'And':
      return typed(and(...all('exprs')), 'boolean', false);
    case 'Or':
      return typed(or(...all('exprs')), 'boolean', false);
    case 'Not':
      return typed(not(e(child(node, 'expr'))), 'boolean', false);
    case 'Tuple':
      return tuple(...all('exprs'));
    case 'Array':
      return array(...all('exprs'));
    case 'Lambda': {
      const args = Array.isArray(node['args']) ? node['args'].map(String) : [];
      if (args.some((a) => !isPrintableIdentifier(a))) throw new HogQLQueryError('Invalid lambda argument');
      t.lambdaArgs.push(...args);
      try {
        return lambda(args, e(child(node, 'expr')));
      } finally {
        t.lambdaArgs.splice(t.lambdaArgs.length - args.length, args.length);
      }
    }
    case 'Placeholder':
      return placeholder(t, node, scope);
    case 'BetweenExpr': {
      const value = e(child(node, 'expr'));
      const inside = and(compare('>=', value, e(child(node, 'low'))), compare('<=', value, e(child(node, 'high'))));
      return typed(node['negated'] ? not(inside) : inside, 'boolean', false);
    }
    case 'ArrayAccess': {
      const index = child(node, 'property');
      if (index?.node === 'Constant' && index['value'] === 0) throw new HogQLQueryError('SQL indexes start from one, not from zero. E.g: array[1]');
      return propertyPath(t, node, scope) ?? call('arrayElement', e(child(node, 'array')), e(index));
    }
    case 'TupleAccess': {
      const index = Number(node['index']);
      if (!Number.isSafeInteger(index) || index < 1) throw new HogQLQueryError('SQL indexes start from one, not from zero. E.g: array.1');
      return propertyPath(t, node, scope) ?? call('tupleElement', e(child(node, 'tuple')), constant(index, 'UInt64'));
    }
    case 'TypeCast': {
      const fn = CASTS[String(node['type_name']).toLowerCase()];
      if (!fn) throw new HogQLQueryError(`Unsupported type cast: ${String(node['type_name'])}`);
      return call(fn, e(child(node, 'expr')));
    }
    case 'ArraySlice': {
      // arr[start:end] as PostHog prints it: arraySlice(arr, start, end - start + 1), both ends inclusive.
      const array = e(child(node, 'array'));
      const start = child(node, 'start_expr');
      const end = child(node, 'end_expr');
      if (!end) return start ? call('arraySlice', array, e(start)) : array;
      const from = start ? e(start) : constant(1, 'UInt8');
      return call('arraySlice', array, from, call('plus', call('minus', e(end), from), constant(1, 'UInt8')));
    }
    case 'TryCast':
      throw new HogQLQueryError('TRY_CAST is not allowed in clickhouse dialect');
    case 'WindowFunction':
      return windowCall(t, node, scope);
    case 'SelectQuery':
    case 'SelectSetQuery':
      return subqueryExpr(t, node, scope);
    default:
      throw new HogQLNotSupportedError(`The expression ${node.node}`);
  }
}

/** `x IN COHORT 5` / `x NOT IN COHORT 'name'`: x among the cohort's persons as of the query. */
function inCohort(t: Translator, node: HogQLNode, scope: Scope): Expr {
  const right = child(node, 'right');
  // A `{placeholder}` there stands for its value, as a constant would (PostHog's property_to_expr writes one).
  const value = right?.node === 'Constant' ? right['value'] : right?.node === 'Placeholder' ? placeholderValue(t, right) : undefined;
  if ((typeof value !== 'number' || !Number.isInteger(value)) && typeof value !== 'string') {
    throw new HogQLQueryError('cohort() takes exactly one string or integer argument');
  }
  const id = typeof value === 'number' ? value : t.context.cohortIdByName?.(value);
  if (id === undefined) throw new HogQLQueryError(`Could not find a cohort with the name '${String(value)}'`);
  if (!Number.isSafeInteger(id) || id <= 0) throw new HogQLQueryError(`Could not find cohort with ID ${id}`);
  const member = binary('IN', t.expr(child(node, 'left')!, scope), t.cohortMembers(id));
  return typed(String(node['op']) === 'in cohort' ? member : not(member), 'boolean', false);
}

/** The right side of IN may name a CTE: it reads as that subquery. */
function compareRight(t: Translator, node: HogQLNode | undefined, scope: Scope): Expr {
  if (!node) throw new HogQLQueryError('Incomplete comparison');
  if (node.node === 'Field') {
    const chain = chainOf(node);
    const cte = chain.length === 1 ? scope.ctes.get(String(chain[0])) : undefined;
    if (cte && !cte.column && !scope.tables.has(String(chain[0]))) return subqueryExpr(t, cte.node, scope, cte.visible);
  }
  return t.expr(node, scope);
}

function subqueryExpr(t: Translator, node: HogQLNode, scope: Scope, ctes: CteMap = scope.ctes): Expr {
  const inner = t.query(node, ctes);
  // A set of queries used as a value reads as one SELECT over it.
  return inner.kind === 'select' ? inner : select({ select: [STAR], from: subquery(inner, `_subquery${++t.aliasCount}`) });
}

/**
 * A HogQLX tag (`<Sparkline data={[1,2,3]} />`) or an object (`{'key': 'value'}`) as PostHog's
 * resolver writes it for the frontend: a tuple that starts '__hx_tag', then the tag's kind (or
 * '__hx_obj'), then name, value, name, value; arrays inside become tuples too.
 */
function hogqlx(t: Translator, node: HogQLNode, scope: Scope): Expr {
  if (node.node === 'Array') return tuple(...children(node, 'exprs').map((x) => hogqlx(t, x, scope)));
  if (node.node === 'Dict') {
    const pairs = Array.isArray(node['items']) ? node['items'] : [];
    return tuple(constant('__hx_tag'), constant('__hx_obj'), ...pairs.flatMap((pair) => (Array.isArray(pair) ? pair.filter(isNode).map((x) => hogqlx(t, x, scope)) : [])));
  }
  if (node.node === 'HogQLXTag') {
    const kind = String(node['kind'] ?? '');
    if (kind.endsWith('Query')) throw new HogQLNotSupportedError(`The HogQLX tag <${kind}>`);
    const attributes = children(node, 'attributes').flatMap((a) => [constant(String(a['name'])), hogqlx(t, child(a, 'value')!, scope)]);
    return tuple(constant('__hx_tag'), constant(kind), ...attributes);
  }
  return t.expr(node, scope);
}
