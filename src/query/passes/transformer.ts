// The base of every pass over the query AST: rebuilds a tree node by node, and a pass overrides
// only the nodes it changes (the team guard: tables). Each node is rebuilt from a literal that
// must name every one of its fields (Complete<T>), so when a node gains a field the compiler
// fails here until the field is walked: no pass can skip a new place a table could hide.
// Kysely's OperationNodeTransformer is the model.
import { InternalError } from '../../errors.js';
import type {
  Expr, FrameBound, FromItem, Join, NumbersRef, OrderItem, Query, Select, SubqueryRef, TableRef, Union, WindowCall, WindowFrame,
} from '../ast/nodes.js';

/** Every field of T, optional ones included (given as undefined when absent). */
type Complete<T> = { [K in keyof Required<T>]: T[K] | undefined };

/** A frozen node from a complete field list; absent optional fields stay absent. */
function rebuild<T>(fields: Complete<T>): T {
  const node: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) node[key] = value;
  return Object.freeze(node) as T;
}

const list = <T>(items: readonly T[], map: (item: T) => T): readonly T[] => Object.freeze(items.map(map));
const maybeList = <T>(items: readonly T[] | undefined, map: (item: T) => T): readonly T[] | undefined =>
  items === undefined ? undefined : list(items, map);

export class AstTransformer {
  /**
   * Each node's rebuild, by identity. A pass is a function of the node alone, so a subtree that
   * appears in many places (runners share expressions) is walked once and stays shared: the
   * walk is linear in the distinct nodes, and only the printer, under its budget, expands them.
   */
  private readonly rebuilt = new WeakMap<object, unknown>();

  private once<T extends object>(node: T, build: (node: T) => T): T {
    const hit = this.rebuilt.get(node);
    if (hit !== undefined) return hit as T;
    const out = build(node);
    this.rebuilt.set(node, out);
    return out;
  }

  query(q: Query): Query {
    return this.once(q, (node) => (node.kind === 'union' ? this.union(node) : this.select(node)));
  }

  union(u: Union): Union {
    return rebuild<Union>({ kind: 'union', selects: list(u.selects, (s) => this.query(s)), operators: u.operators });
  }

  select(s: Select): Select {
    const expr = (x: Expr | undefined) => (x === undefined ? undefined : this.expr(x));
    const exprs = (xs: readonly Expr[] | undefined) => maybeList(xs, (x) => this.expr(x));
    return rebuild<Select>({
      kind: 'select',
      select: list(s.select, (x) => this.expr(x)),
      distinct: s.distinct,
      from: s.from === undefined ? undefined : this.fromItem(s.from),
      joins: maybeList(s.joins, (j) => this.join(j)),
      arrayJoin: expr(s.arrayJoin),
      where: expr(s.where),
      groupBy: exprs(s.groupBy),
      groupByMode: s.groupByMode,
      having: expr(s.having),
      orderBy: maybeList(s.orderBy, (o) => this.orderItem(o)),
      limit: s.limit,
      limitExpr: expr(s.limitExpr),
      withTies: s.withTies,
      limitFraction: s.limitFraction,
      offset: s.offset,
      limitBy: s.limitBy === undefined ? undefined : Object.freeze({ count: s.limitBy.count, exprs: list(s.limitBy.exprs, (x) => this.expr(x)) }),
    });
  }

  fromItem(f: FromItem): FromItem {
    if (f.kind === 'numbers') return this.numbers(f);
    return f.kind === 'table' ? this.table(f) : this.subquery(f);
  }

  numbers(n: NumbersRef): NumbersRef {
    const bound = (b: number | Expr): number | Expr => (typeof b === 'number' ? b : this.expr(b));
    return rebuild<NumbersRef>({ kind: 'numbers', start: bound(n.start), count: bound(n.count), alias: n.alias });
  }

  table(t: TableRef): TableRef {
    return rebuild<TableRef>({ kind: 'table', table: t.table, alias: t.alias, teamId: t.teamId, sample: t.sample, materialized: t.materialized, final: t.final });
  }

  subquery(s: SubqueryRef): SubqueryRef {
    return rebuild<SubqueryRef>({ kind: 'subquery', query: this.query(s.query), alias: s.alias });
  }

  join(j: Join): Join {
    return rebuild<Join>({
      type: j.type,
      from: this.fromItem(j.from),
      on: j.on === undefined ? undefined : this.expr(j.on),
      using: j.using,
    });
  }

  orderItem(o: OrderItem): OrderItem {
    return rebuild<OrderItem>({ expr: this.expr(o.expr), direction: o.direction });
  }

  window(w: WindowCall): WindowCall {
    return rebuild<WindowCall>({
      kind: 'window',
      call: this.expr(w.call) as WindowCall['call'],
      partitionBy: list(w.partitionBy, (x) => this.expr(x)),
      orderBy: list(w.orderBy, (o) => this.orderItem(o)),
      frame: w.frame === undefined ? undefined : rebuild<WindowFrame>({ method: w.frame.method, start: bound(w.frame.start), end: w.frame.end && bound(w.frame.end) }),
    });
  }

  expr(x: Expr): Expr {
    return this.once(x, (node) => this.exprOf(node));
  }

  private exprOf(x: Expr): Expr {
    const all = (xs: readonly Expr[]) => list(xs, (a) => this.expr(a));
    switch (x.kind) {
      case 'select':
        return this.select(x);
      case 'window':
        return this.window(x);
      case 'call':
        return rebuild<typeof x>({ kind: 'call', name: x.name, args: all(x.args), params: x.params && all(x.params), distinct: x.distinct });
      case 'binary':
        return rebuild<typeof x>({ kind: 'binary', op: x.op, left: this.expr(x.left), right: this.expr(x.right) });
      case 'and':
      case 'or':
        return rebuild<typeof x>({ kind: x.kind, exprs: all(x.exprs) } as Complete<typeof x>);
      case 'not':
        return rebuild<typeof x>({ kind: 'not', expr: this.expr(x.expr) });
      case 'isNull':
        return rebuild<typeof x>({ kind: 'isNull', expr: this.expr(x.expr), negated: x.negated });
      case 'alias':
        return rebuild<typeof x>({ kind: 'alias', expr: this.expr(x.expr), alias: x.alias });
      case 'lambda':
        return rebuild<typeof x>({ kind: 'lambda', args: x.args, body: this.expr(x.body) });
      case 'tuple':
        return rebuild<typeof x>({ kind: 'tuple', items: all(x.items) });
      case 'array':
        return rebuild<typeof x>({ kind: 'array', items: all(x.items) });
      case 'constant':
        return rebuild<typeof x>({ kind: 'constant', value: x.value, type: x.type });
      case 'field':
        return rebuild<typeof x>({ kind: 'field', name: x.name, table: x.table });
      case 'interval':
        return rebuild<typeof x>({ kind: 'interval', count: x.count, unit: x.unit });
      case 'keyword':
        return rebuild<typeof x>({ kind: 'keyword', text: x.text });
      case 'star':
        return rebuild<typeof x>({ kind: 'star', table: x.table });
      default: {
        const unknown: never = x;
        throw new InternalError('unknown_node', `unknown node ${JSON.stringify(unknown)}`);
      }
    }
  }
}

function bound(b: FrameBound): FrameBound {
  return b.type === 'CURRENT ROW' ? rebuild<typeof b>({ type: b.type }) : rebuild<typeof b>({ type: b.type, offset: b.offset });
}
