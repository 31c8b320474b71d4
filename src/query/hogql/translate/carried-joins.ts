// An events table in a JOIN position reads its lazy joins (merge overrides, person, groups,
// session) inside its own FROM item. An ON clause can read only the tables joined before it, and a
// table's lazy joins need that table, so placed after its join they are out of its own ON clause's
// reach (`events e1 join events e2 on e1.person_id = e2.person_id`). Read instead as
// `(SELECT <its columns>, <the lazy joins' columns read> FROM events AS e2 LEFT JOIN ...) AS e2`,
// the table answers `person_id`, `person.*`, `pdi.*`, `group_N.*` and `session.*` from itself, in
// its ON clause, the SELECT list and WHERE alike. The first table of a SELECT keeps its joins after
// it: they can follow it directly, and the rewrites that make it fast (filter-first.ts,
// lookup-semi-join.ts) work on joins of that shape.
import { alias, field, select, subquery, table } from '../../ast/build.js';
import type { Expr, FromItem, Join } from '../../ast/nodes.js';
import type { FieldRef, SourceNames } from '../../catalog/fields.js';
import { EventSource } from '../../filters/event-source.js';
import { AstTransformer } from '../../passes/transformer.js';

/** The stored columns of events, all offered by the subquery: the engine reads only those the query names. */
const EVENT_COLUMNS = [
  'uuid', 'team_id', 'event', 'distinct_id', 'person_id', 'properties', 'timestamp', 'created_at', '$session_id',
  '$group_0', '$group_1', '$group_2', '$group_3', '$group_4', 'elements_chain',
];

/** Renames the lazy joins' columns an expression reads to columns of the events table's subquery. */
class ToCarriedColumns extends AstTransformer {
  constructor(private readonly rename: (column: Extract<Expr, { kind: 'field' }>) => Expr | undefined) {
    super();
  }

  override expr(x: Expr): Expr {
    return (x.kind === 'field' && this.rename(x)) || super.expr(x);
  }
}

/** The lazy joins of one events table in a JOIN position, and the columns of them the query read. */
export class CarriedJoins {
  /** Column of the subquery -> what it reads inside (a lazy join's column). */
  private readonly columns = new Map<string, Expr>();
  private readonly renamer: ToCarriedColumns;

  constructor(private readonly eventsAlias: string) {
    // Every lazy join of the table is named `<alias>__...` (catalog/fields.ts namesFor, sessions.ts),
    // a name no user alias can take (`__` is refused in them).
    this.renamer = new ToCarriedColumns((column) => {
      const joinAlias = column.table;
      if (joinAlias === undefined || !joinAlias.startsWith(`${eventsAlias}__`)) return undefined;
      const name = `${joinAlias}__${column.name}`;
      this.columns.set(name, column);
      return field(name, eventsAlias);
    });
  }

  /** The expression as read from outside the table: its lazy joins' columns as the subquery's. */
  outside(expr: Expr): Expr {
    return this.renamer.expr(expr);
  }

  /** The table itself while nothing read a lazy join; else the subquery that carries `joins`. `events`: the table as given (its SAMPLE). */
  from(joins: Join[], events: FromItem = table('events', this.eventsAlias)): FromItem {
    if (joins.length === 0) return events;
    return subquery(select({
      select: [
        ...EVENT_COLUMNS.map((name) => alias(field(name, this.eventsAlias), name)),
        ...[...this.columns].map(([name, inner]) => alias(inner, name)),
      ],
      from: events,
      joins,
    }), this.eventsAlias);
  }
}

/** An EventSource whose reads come out as seen from outside its carried joins (filters read through it too). */
export class CarriedEventSource extends EventSource {
  constructor(names: SourceNames, private readonly carried: CarriedJoins) {
    super(names);
  }

  override read(ref: FieldRef): Expr {
    return this.carried.outside(super.read(ref));
  }
}
