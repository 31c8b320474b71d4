// A property read that the event store keeps in a column (storage/events/materialized-properties.ts)
// reads the column instead of parsing the event's JSON. The swap is made only for the exact
// expression the column holds, `JSONExtract(<events>.properties, '<key>', 'Nullable(String)')`, so
// the value is the same by construction; and only on a table alias that every FROM and JOIN of the
// whole query binds to the events table, so the alias cannot name another row source anywhere.
// The events' guarded SELECT then names the columns read (SELECT * leaves MATERIALIZED ones out).
import { field } from '../ast/build.js';
import type { Expr, FromItem, Query, TableRef } from '../ast/nodes.js';
import { MATERIALIZED_TYPE, materializedColumn } from '../../storage/events/materialized-properties.js';
import { AstTransformer } from './transformer.js';

export function readMaterializedProperties<Q extends Query>(query: Q): Q {
  const aliases = new AliasCollector();
  aliases.query(query);
  const events = [...aliases.events].filter((alias) => !aliases.others.has(alias));
  if (events.length === 0) return query;
  const reader = new ColumnReader(new Set(events));
  const read = reader.query(query);
  return reader.used.size === 0 ? query : (new GuardColumns(reader.used).query(read) as Q);
}

/** Which aliases FROM and JOIN items bind, to the events table or to anything else. */
class AliasCollector extends AstTransformer {
  readonly events = new Set<string>();
  readonly others = new Set<string>();

  override fromItem(item: FromItem): FromItem {
    (item.kind === 'table' && item.table === 'events' ? this.events : this.others).add(item.alias);
    return super.fromItem(item);
  }
}

/** Swaps each property read a column holds for the column, noting the columns read per alias. */
class ColumnReader extends AstTransformer {
  readonly used = new Map<string, Set<string>>();

  constructor(private readonly eventAliases: ReadonlySet<string>) {
    super();
  }

  override expr(x: Expr): Expr {
    return this.columnFor(x) ?? super.expr(x);
  }

  private columnFor(x: Expr): Expr | undefined {
    if (x.kind !== 'call' || x.name !== 'JSONExtract' || x.params || x.distinct || x.args.length !== 3) return undefined;
    const [json, key, type] = x.args as [Expr, Expr, Expr];
    if (json.kind !== 'field' || json.name !== 'properties' || json.table === undefined || !this.eventAliases.has(json.table)) return undefined;
    if (key.kind !== 'constant' || typeof key.value !== 'string' || (key.type !== undefined && key.type !== 'String')) return undefined;
    if (type.kind !== 'keyword' || type.text !== MATERIALIZED_TYPE) return undefined;
    const column = materializedColumn(key.value);
    if (!column) return undefined;
    const columns = this.used.get(json.table) ?? new Set<string>();
    this.used.set(json.table, columns.add(column));
    return field(column, json.table);
  }
}

/** Names the columns read in the guarded SELECT of the events tables they are read from. */
class GuardColumns extends AstTransformer {
  constructor(private readonly used: ReadonlyMap<string, ReadonlySet<string>>) {
    super();
  }

  override table(t: TableRef): TableRef {
    const columns = this.used.get(t.alias);
    return columns ? super.table({ ...t, materialized: [...columns].sort() }) : super.table(t);
  }
}
