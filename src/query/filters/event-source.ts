// The events a runner reads, with the joins it needs added only when an expression asks for
// them: merge overrides when persons are counted, persons when their properties or creation are
// read, groups when theirs are. What each field takes is the catalog's (catalog/fields.ts); this
// class collects it while a runner builds its expressions, so build them all before joins().
import { field, table } from '../ast/build.js';
import type { Expr, FromItem, Join } from '../ast/nodes.js';
import { EVENTS, joinsFor, resolveField, type FieldRef, type JoinNeed } from '../catalog/fields.js';

export { jsonProperty } from '../catalog/fields.js';

export class EventSource {
  private readonly needs: JoinNeed[] = [];

  readonly timestamp = field('timestamp', EVENTS);
  readonly event = field('event', EVENTS);
  readonly distinctId = field('distinct_id', EVENTS);
  readonly sessionId = field('$session_id', EVENTS);
  readonly uuid = field('uuid', EVENTS);
  readonly elementsChain = field('elements_chain', EVENTS);
  /** The event's properties as stored (JSON text). */
  readonly properties = field('properties', EVENTS);

  /** Any field the catalog knows, its joins noted. */
  read(ref: FieldRef): Expr {
    const { expr, needs } = resolveField(ref);
    this.needs.push(...needs);
    return expr;
  }

  /** The person of the event after merges. */
  personId(): Expr {
    return this.read({ of: 'person', column: 'id' });
  }

  eventProperty(key: string): Expr {
    return this.read({ of: 'event', property: key });
  }

  /** Current person properties (PostHog's default "properties joined" mode). */
  personProperty(key: string): Expr {
    return this.read({ of: 'person', property: key });
  }

  /** When the merged person was created (the first event Hoglet processed for them, earliest of a merge). */
  personCreatedAt(): Expr {
    return this.read({ of: 'person', column: 'created_at' });
  }

  groupProperty(index: number, key: string): Expr {
    return this.read({ of: 'group', index, property: key });
  }

  /** When a group was created (its first $groupidentify); the zero date for a group never identified. */
  groupCreatedAt(index: number): Expr {
    return this.read({ of: 'group', index, column: 'created_at' });
  }

  groupKey(index: number): Expr {
    return this.read({ of: 'group', index, column: 'key' });
  }

  from(): FromItem {
    return table('events', EVENTS);
  }

  joins(): Join[] {
    return joinsFor(this.needs);
  }
}
