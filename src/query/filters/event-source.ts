// The events a runner reads, with the joins it needs added only when an expression asks for
// them: merge overrides when persons are counted, persons when their properties are read, groups
// when group properties are read.
import {
  and, call, constant, eq, field, keyword, leftJoin, select, subquery, table, alias,
} from '../ast/build.js';
import type { Expr, FromItem, Join } from '../ast/nodes.js';

const E = 'e';

/** Reads one JSON property as a string; missing keys, JSON null and "" all become NULL (PostHog's rule). */
export function jsonProperty(json: Expr, key: string): Expr {
  return call('nullIf', call('JSONExtract', json, constant(key), keyword('Nullable(String)')), constant(''));
}

export class EventSource {
  private needsOverrides = false;
  private needsPersons = false;
  private readonly groupIndexes = new Set<number>();

  readonly timestamp = field('timestamp', E);
  readonly event = field('event', E);
  readonly distinctId = field('distinct_id', E);
  readonly sessionId = field('$session_id', E);
  readonly uuid = field('uuid', E);
  readonly elementsChain = field('elements_chain', E);

  /** The person of the event after merges. */
  personId(): Expr {
    this.needsOverrides = true;
    return call('if', call('notEmpty', field('distinct_id', 'overrides')), field('override_person_id', 'overrides'), field('person_id', E));
  }

  eventProperty(key: string): Expr {
    return jsonProperty(field('properties', E), key);
  }

  /** Current person properties (PostHog's default "properties joined" mode). */
  personProperty(key: string): Expr {
    this.needsOverrides = true;
    this.needsPersons = true;
    return jsonProperty(field('person_properties', 'person'), key);
  }

  groupProperty(index: number, key: string): Expr {
    this.groupIndexes.add(index);
    return jsonProperty(field('group_properties', `group_${index}`), key);
  }

  groupKey(index: number): Expr {
    return field(`$group_${index}`, E);
  }

  from(): FromItem {
    return table('events', E);
  }

  joins(): Join[] {
    const joins: Join[] = [];
    if (this.needsOverrides) {
      joins.push(leftJoin(
        subquery(select({
          select: [field('distinct_id'), alias(call('argMax', field('person_id'), field('version')), 'override_person_id')],
          from: table('person_distinct_id_overrides', 'o'),
          groupBy: [field('distinct_id')],
        }), 'overrides'),
        eq(field('distinct_id', E), field('distinct_id', 'overrides')),
      ));
    }
    if (this.needsPersons) {
      joins.push(leftJoin(
        subquery(select({
          select: [alias(field('id'), 'person_key'), alias(call('argMax', field('properties'), field('version')), 'person_properties')],
          from: table('persons', 'p'),
          groupBy: [field('id')],
          having: eq(call('argMax', field('is_deleted'), field('version')), constant(false)),
        }), 'person'),
        eq(field('person_key', 'person'), this.personId()),
      ));
    }
    for (const index of [...this.groupIndexes].sort()) {
      const name = `group_${index}`;
      joins.push(leftJoin(
        subquery(select({
          select: [alias(field('group_key'), 'key'), alias(call('argMax', field('properties'), field('version')), 'group_properties')],
          from: table('groups', 'g'),
          where: eq(field('group_type_index'), constant(index)),
          groupBy: [field('group_key')],
        }), name),
        and(eq(field('key', name), this.groupKey(index))),
      ));
    }
    return joins;
  }
}
