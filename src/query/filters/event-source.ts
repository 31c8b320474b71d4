// The events a runner reads, with the joins it needs added only when an expression asks for
// them: merge overrides when persons are counted, persons when their properties or creation are
// read, groups when theirs are. What each field takes is the catalog's (catalog/fields.ts); this
// class collects it while a runner builds its expressions, so build them all before joins().
import { binary, call, field, table } from '../ast/build.js';
import type { Expr, FromItem, Join, Select } from '../ast/nodes.js';
import { InternalError } from '../../errors.js';
import { HogQLQueryError } from '../hogql/errors.js';
import { DEFAULT_NAMES, joinsFor, resolveField, type FieldRef, type JoinNeed, type SourceNames } from '../catalog/fields.js';
import type { PathCleaningRule } from '../nodes/schema.js';
import type { PropertyType } from '../catalog/property-type.js';
import { propertyRefKey, type PropertyOwner } from '../hogql/property-types.js';

export { jsonProperty } from '../catalog/fields.js';

/**
 * Reads a HogQL expression (already parsed: see QueryContext.hogql) over a source's events; the
 * fields it names add their joins to that source.
 */
export type HogQLExpressionReader = (text: string, source: EventSource) => Expr;

const NO_HOGQL: HogQLExpressionReader = () => {
  throw new InternalError('hogql_unparsed', 'a HogQL expression was read without being parsed first');
};

/** A cohort's members as a subquery of person ids (query/cohorts/members.ts), as of the query. */
export type CohortMembersReader = (cohortId: number) => Select;

const NO_COHORTS: CohortMembersReader = (id) => {
  throw new InternalError('cohort_unresolved', `cohort ${id} was read without being resolved first`);
};

export class EventSource {
  private readonly needs: JoinNeed[] = [];
  /** Joins beyond the catalog's that HogQL expressions over these events add (an event's session), one per name. */
  private readonly attached = new Map<string, JoinProvider>();
  /** Columns computed inside the person and group joins, by join and key: x0, x1... */
  private readonly extractNames = new Map<string, string>();

  readonly timestamp: Expr;
  readonly event: Expr;
  readonly distinctId: Expr;
  readonly sessionId: Expr;
  readonly uuid: Expr;
  readonly elementsChain: Expr;
  /** The event's properties as stored (JSON text). */
  readonly properties: Expr;

  /**
   * `names`: the aliases of the events table and its joins (HogQL gives each `events AS x` its own);
   * `hogql`: how HogQL expressions of the query (math_hogql, hogql filters and breakdowns) read.
   */
  constructor(
    readonly names: SourceNames = DEFAULT_NAMES,
    private readonly hogql: HogQLExpressionReader = NO_HOGQL,
    private readonly cohorts: CohortMembersReader = NO_COHORTS,
    /** The project's path cleaning rules, for is_cleaned_path_exact filters; absent: unknown here. */
    readonly pathCleaningRules?: readonly PathCleaningRule[],
    /** The types people set on the project's properties (by propertyRefKey); absent: none known. */
    private readonly setPropertyTypes?: ReadonlyMap<string, PropertyType>,
  ) {
    const column = (name: string) => field(name, names.events);
    this.timestamp = column('timestamp');
    this.event = column('event');
    this.distinctId = column('distinct_id');
    this.sessionId = column('$session_id');
    this.uuid = column('uuid');
    this.elementsChain = column('elements_chain');
    this.properties = column('properties');
  }

  /** The type a person set on this property (Data management), if any: filters compare by it. */
  propertyType(owner: PropertyOwner, key: string): PropertyType | undefined {
    return this.setPropertyTypes?.get(propertyRefKey(owner, key));
  }

  /** Any field the catalog knows, its joins noted. */
  read(ref: FieldRef): Expr {
    const { expr, needs } = resolveField(ref, this.names, this.nameExtract);
    this.needs.push(...needs);
    return expr;
  }

  private readonly nameExtract = (joinAlias: string, key: string): string => {
    const id = `${joinAlias}\u0000${key}`;
    let name = this.extractNames.get(id);
    if (name === undefined) {
      name = `x${this.extractNames.size}`;
      this.extractNames.set(id, name);
    }
    return name;
  };

  /** A HogQL expression of the query, over these events. */
  hogqlExpr(text: string): Expr {
    return this.hogql(text, this);
  }

  /** Whether the event's (merged) person is in the cohort. */
  inCohort(cohortId: number): Expr {
    return binary('IN', this.personId(), this.cohorts(cohortId));
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

  /**
   * A field of the event's session (a session property filter: PostHog reads `session.<key>`), as
   * text, as filter values are. Read through HogQL, whose sessions table has the fields.
   */
  sessionProperty(key: string): Expr {
    // No session field has a backtick or a backslash, and HogQL's quoted names cannot carry them.
    if (!isSessionFieldName(key)) throw new HogQLQueryError(`Unable to resolve field: session.${key}`);
    return call('toString', this.hogqlExpr(sessionFieldText(key)));
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
    return table('events', this.names.events);
  }

  /**
   * The join provider of this name, made on first use: every HogQL expression over these events
   * (a filter, math_hogql, a breakdown) reads through the same one, so its join is written once.
   */
  attach<T extends JoinProvider>(name: string, make: () => T): T {
    let provider = this.attached.get(name);
    if (!provider) {
      provider = make();
      this.attached.set(name, provider);
    }
    return provider as T;
  }

  joins(): Join[] {
    return [...joinsFor(this.needs, this.names), ...[...this.attached.values()].flatMap((provider) => provider.joins())];
  }
}

/** Whether `key` can name a session field in HogQL's quotes (the rest name none: a 400 when read). */
export const isSessionFieldName = (key: string): boolean => !/[`\\]/.test(key);

/** The HogQL a session property filter on `key` reads (parsed with the query's other HogQL). */
export const sessionFieldText = (key: string): string => `session.\`${key}\``;

/** Something that adds joins to the events it reads, once its fields are known. */
export interface JoinProvider {
  joins(): Join[];
}
