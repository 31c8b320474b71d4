// On a ClickHouse cluster a session's aggregate states may lie on several shards (each shard's
// view aggregates its own events, and events are sharded by distinct id), and FINAL merges only
// within a shard. There the sessions table's rows are read as before FINAL existed: grouped by
// session id, each state merged with its function's -Merge (the initiator merges across shards).
// Same rows, same values as FINAL on one server: test/query/passes/group-sessions-across-shards.test.ts.
import { call, constant, field, parametricCall } from '../ast/build.js';
import type { Expr, Select, TableRef } from '../ast/nodes.js';
import { sessionColumnMerge } from '../../storage/events/migrations/0004_sessions.js';
import { AstTransformer } from './transformer.js';

export function groupSessionsAcrossShards<Q extends Parameters<AstTransformer['query']>[0]>(query: Q): Q {
  return new SessionGrouper().query(query) as Q;
}

class SessionGrouper extends AstTransformer {
  override select(s: Select): Select {
    const out = super.select(s);
    const from = out.from;
    if (from?.kind !== 'table' || from.table !== 'sessions' || !from.final) return out;
    const raw = from.alias;
    const { final: _final, ...unfinal } = from;
    return {
      ...out,
      from: unfinal as TableRef,
      select: out.select.map((item) => merged(item, raw)),
      groupBy: [field('session_id', raw)],
    };
  }
}

/** The expression with each read of a stored column replaced by its merge over the session's rows. */
function merged(x: Expr, raw: string): Expr {
  return new ColumnMerger(raw).expr(x);
}

class ColumnMerger extends AstTransformer {
  constructor(private readonly raw: string) {
    super();
  }

  override expr(x: Expr): Expr {
    if (x.kind === 'call' && x.name === 'finalizeAggregation' && x.args.length === 1) {
      const column = stored(x.args[0]!, this.raw);
      const merge = column && sessionColumnMerge(column);
      if (merge && merge.name.endsWith('Merge')) {
        const arg = field(column, this.raw);
        return merge.params ? parametricCall(merge.name, merge.params.map((n) => constant(n, 'UInt8')), [arg]) : call(merge.name, arg);
      }
    }
    const column = stored(x, this.raw);
    if (column && column !== 'session_id') {
      const merge = sessionColumnMerge(column);
      if (!merge || merge.name.endsWith('Merge')) throw new Error(`the sessions column ${column} is read without finalizeAggregation`);
      return call(merge.name, x);
    }
    return super.expr(x);
  }
}

/** The stored column a field of the raw sessions table names. */
function stored(x: Expr, raw: string): string | undefined {
  return x.kind === 'field' && x.table === raw ? x.name : undefined;
}
