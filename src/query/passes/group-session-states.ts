// The sessions table is read with FINAL (translate/sessions.ts), which suits a read of a time
// range: the key's start hint bounds what is read, and the engine merges a session's rows as it
// reads them. Two reads need the rows grouped by session id instead, each state merged with its
// function's -Merge (the shape before FINAL):
// - on a ClickHouse cluster, every read: a session's states may lie on several shards (each
//   shard's view aggregates its own events, sharded by distinct id) and FINAL merges per shard;
// - on one server, a read narrowed to listed sessions (`session_id IN (...)`, session-bound.ts):
//   FINAL filters after merging every row of the ranges it reads (3x slower for 600 of 2.4M
//   sessions: 110 ms against 40), GROUP BY filters first.
// Same rows, same values either way: test/query/passes/group-session-states.test.ts.
import { call, constant, field, parametricCall } from '../ast/build.js';
import type { Expr, Select, TableRef } from '../ast/nodes.js';
import { conjunctsOf } from '../ast/reads.js';
import { sessionColumnMerge } from '../../storage/events/migrations/0004_sessions.js';
import { AstTransformer } from './transformer.js';

/** Which FINAL reads of the sessions table to group: all of them (a cluster), or those narrowed to listed ids. */
export type SessionReadsToGroup = 'every' | 'narrowed to listed ids';

export function groupSessionStates<Q extends Parameters<AstTransformer['query']>[0]>(query: Q, which: SessionReadsToGroup): Q {
  return new SessionGrouper(which).query(query) as Q;
}

class SessionGrouper extends AstTransformer {
  constructor(private readonly which: SessionReadsToGroup) {
    super();
  }

  override select(s: Select): Select {
    const out = super.select(s);
    const from = out.from;
    if (from?.kind !== 'table' || from.table !== 'sessions' || !from.final) return out;
    const raw = from.alias;
    if (this.which !== 'every' && !narrowedToIds(out, raw)) return out;
    const { final: _final, ...unfinal } = from;
    return {
      ...out,
      from: unfinal as TableRef,
      select: out.select.map((item) => merged(item, raw)),
      groupBy: [field('session_id', raw)],
    };
  }
}

/** Whether the read keeps only the sessions an IN lists (`raw.session_id IN (...)`, a conjunct of its WHERE). */
function narrowedToIds(s: Select, raw: string): boolean {
  return conjunctsOf(s.where).some((c) => c.kind === 'binary' && c.op === 'IN' && c.left.kind === 'field' && c.left.table === raw && c.left.name === 'session_id');
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
