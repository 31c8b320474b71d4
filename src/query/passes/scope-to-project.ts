// The team guard: stamps the project id on every table a query names, wherever it sits (FROM,
// JOIN, subqueries in expressions). Runners never add team filters themselves; the printer
// refuses any table this pass did not stamp.
import { InternalError } from '../../errors.js';
import type { Expr, FromItem, Join, Query, Select } from '../ast/nodes.js';

export function scopeToProject<Q extends Query>(query: Q, teamId: number): Q {
  if (!Number.isSafeInteger(teamId) || teamId <= 0) throw new InternalError('invalid_project_id', `invalid project id ${teamId}`);
  return new Scoper(teamId).query(query) as Q;
}

class Scoper {
  constructor(private readonly teamId: number) {}

  query(q: Query): Query {
    if (q.kind === 'union') return Object.freeze({ ...q, selects: Object.freeze(q.selects.map((s) => this.select(s))) });
    return this.select(q);
  }

  select(s: Select): Select {
    const e = (x: Expr | undefined) => (x === undefined ? undefined : this.expr(x));
    const list = (xs: readonly Expr[] | undefined) => (xs === undefined ? undefined : Object.freeze(xs.map((x) => this.expr(x))));
    return Object.freeze({
      ...s,
      select: list(s.select)!,
      ...(s.from ? { from: this.from(s.from) } : {}),
      ...(s.joins ? { joins: Object.freeze(s.joins.map((j) => this.join(j))) } : {}),
      ...(s.arrayJoin ? { arrayJoin: e(s.arrayJoin) } : {}),
      ...(s.where ? { where: e(s.where) } : {}),
      ...(s.groupBy ? { groupBy: list(s.groupBy) } : {}),
      ...(s.having ? { having: e(s.having) } : {}),
      ...(s.orderBy ? { orderBy: Object.freeze(s.orderBy.map((o) => Object.freeze({ ...o, expr: this.expr(o.expr) }))) } : {}),
    });
  }

  private from(f: FromItem): FromItem {
    if (f.kind === 'table') return Object.freeze({ ...f, teamId: this.teamId });
    return Object.freeze({ ...f, query: this.query(f.query) });
  }

  private join(j: Join): Join {
    return Object.freeze({ ...j, from: this.from(j.from), on: this.expr(j.on) });
  }

  /** Expressions only need rewriting where a subquery hides inside them. */
  private expr(x: Expr): Expr {
    switch (x.kind) {
      case 'select':
        return this.select(x);
      case 'call':
        return Object.freeze({ ...x, args: Object.freeze(x.args.map((a) => this.expr(a))), ...(x.params ? { params: Object.freeze(x.params.map((p) => this.expr(p))) } : {}) });
      case 'binary':
        return Object.freeze({ ...x, left: this.expr(x.left), right: this.expr(x.right) });
      case 'and':
      case 'or':
        return Object.freeze({ ...x, exprs: Object.freeze(x.exprs.map((a) => this.expr(a))) });
      case 'not':
      case 'isNull':
      case 'alias':
        return Object.freeze({ ...x, expr: this.expr(x.expr) });
      case 'lambda':
        return Object.freeze({ ...x, body: this.expr(x.body) });
      case 'tuple':
      case 'array':
        return Object.freeze({ ...x, items: Object.freeze(x.items.map((a) => this.expr(a))) });
      case 'window':
        return Object.freeze({
          ...x,
          call: this.expr(x.call) as typeof x.call,
          partitionBy: Object.freeze(x.partitionBy.map((a) => this.expr(a))),
          orderBy: Object.freeze(x.orderBy.map((o) => Object.freeze({ ...o, expr: this.expr(o.expr) }))),
        });
      case 'constant':
      case 'field':
      case 'star':
      case 'interval':
      case 'keyword':
        return x;
      default: {
        const unknown: never = x;
        throw new InternalError('unknown_node', `unknown node ${JSON.stringify(unknown)}`);
      }
    }
  }
}
