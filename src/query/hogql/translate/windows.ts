// `f(...) OVER (...)` and `OVER name`: a window function call with its partition, order and frame.
import { call } from '../../ast/build.js';
import type { FrameBound, WindowCall, WindowFrame } from '../../ast/nodes.js';
import { HogQLNotSupportedError, HogQLQueryError } from '../errors.js';
import { userCall } from './calls.js';
import { child, children, type HogQLNode } from './hogql-ast.js';
import type { Scope, Translator } from './scope.js';
import { orderItem } from './select.js';

const WHOLE_PARTITION: WindowFrame = { method: 'ROWS', start: { type: 'PRECEDING' }, end: { type: 'FOLLOWING' } };

export function windowCall(t: Translator, node: HogQLNode, scope: Scope): WindowCall {
  const name = String(node['name'] ?? '');
  const named = node['over_identifier'];
  const postgresStyle = name === 'lag' || name === 'lead';
  const args = children(node, 'exprs').map((x, i) => (postgresStyle && i === 0 ? call('toNullable', t.expr(x, scope)) : t.expr(x, scope)));
  const params = children(node, 'args').map((x) => t.expr(x, scope));
  const resolved = userCall({ name, args, ...(params.length ? { params } : {}), distinct: false }, t.context);
  const over = named ? namedWindow(String(named), scope) : child(node, 'over_expr');
  // PostgreSQL's lag/lead see the whole partition (NULL past its edges): PostHog's frame when none is given.
  const frame = (over ? frameOf(over) : undefined) ?? (postgresStyle ? WHOLE_PARTITION : undefined);
  return Object.freeze({
    kind: 'window' as const,
    call: resolved.call,
    partitionBy: Object.freeze(over ? children(over, 'partition_by').map((x) => t.expr(x, scope)) : []),
    orderBy: Object.freeze(over ? children(over, 'order_by').map((x) => orderItem(t, x, scope)) : []),
    ...(frame ? { frame } : {}),
  });
}

/** `OVER name`: the WINDOW clause's definition of that name, read as if written in place. */
function namedWindow(name: string, scope: Scope): HogQLNode {
  const window = scope.windows.get(name);
  if (!window) throw new HogQLQueryError(`Window "${name}" is not defined in the query's WINDOW clause`);
  return window;
}

function frameOf(over: HogQLNode): WindowFrame | undefined {
  const method = over['frame_method'];
  if (method !== 'ROWS' && method !== 'RANGE') return undefined;
  const bound = (b: HogQLNode | undefined): FrameBound | undefined => {
    if (!b) return undefined;
    const type = String(b['frame_type']);
    if (type === 'CURRENT ROW') return { type: 'CURRENT ROW' };
    if (type !== 'PRECEDING' && type !== 'FOLLOWING') throw new HogQLNotSupportedError(`Window frame ${type}`);
    const value = b['frame_value'];
    if (value === null || value === undefined) return { type };
    if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new HogQLQueryError('A window frame offset must be a whole number');
    return { type, offset: value };
  };
  const start = bound(child(over, 'frame_start'));
  if (!start) return undefined;
  const end = bound(child(over, 'frame_end'));
  return end ? { method, start, end } : { method, start };
}
