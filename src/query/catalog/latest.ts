// The latest version of the versioned tables' rows. ClickHouse keeps every version written
// (persons, groups, distinct-id overrides and mappings); a query reads argMax(column, version)
// per key. These subqueries are the one place the engine spells that out.
import { alias, binary, call, constant, eq, field, select, table } from '../ast/build.js';
import type { Expr, Select } from '../ast/nodes.js';
import type { NamedExtract } from './fields.js';

/** Columns of persons and groups that change with versions and that queries read. */
export type VersionedColumn = 'properties' | 'created_at' | 'is_identified';

const latest = (column: string, name: string): Expr => alias(call('argMax', field(column), field('version')), name);
const latestColumns = (columns: readonly VersionedColumn[], prefix: 'person' | 'group'): Expr[] =>
  [...new Set(columns)].sort().map((column) => latest(column, `${prefix}_${column}`));

/** Each extract over the latest properties: computed once per person or group, in the subquery. */
const latestExtracts = (extracts: readonly NamedExtract[]): Expr[] =>
  extracts.map((extract) => alias(extract.of(call('argMax', field('properties'), field('version'))), extract.name));

/** One row per live person: `person_key` and each asked column as `person_<column>`. */
export function latestPersons(columns: readonly VersionedColumn[], extracts: readonly NamedExtract[] = []): Select {
  return select({
    select: [alias(field('id'), 'person_key'), ...latestColumns(columns, 'person'), ...latestExtracts(extracts)],
    from: table('persons', 'p'),
    groupBy: [field('id')],
    having: eq(call('argMax', field('is_deleted'), field('version')), constant(false)),
  });
}

/** One row per group of one type: `group_key` and each asked column as `group_<column>`. */
export function latestGroups(index: number, columns: readonly VersionedColumn[], extracts: readonly NamedExtract[] = []): Select {
  return select({
    select: [field('group_key'), ...latestColumns(columns, 'group'), ...latestExtracts(extracts)],
    from: table('groups', 'g'),
    where: eq(field('group_type_index'), constant(index)),
    groupBy: [field('group_key')],
  });
}

/**
 * Each distinct id a merge moved (`override_distinct_id`) and the person it now belongs to
 * (`override_person_id`): prefixed names, so a user's `USING (distinct_id)` beside this join is
 * not ambiguous. A deleted person's ids lose theirs (tombstones): events sent under them later
 * belong to the new person they make.
 */
export function latestOverrides(): Select {
  return select({
    select: [alias(field('distinct_id'), 'override_distinct_id'), latest('person_id', 'override_person_id')],
    from: table('person_distinct_id_overrides', 'o'),
    groupBy: [field('distinct_id')],
    having: eq(call('argMax', field('is_deleted'), field('version')), constant(false)),
  });
}

/**
 * The latest mapping of every distinct id ever mapped to one of `personIds`: `mapped_distinct_id`,
 * `mapped_person` (text) and `mapped_deleted`. A distinct id a merge moved belongs to its new person.
 */
export function latestMappings(personIds: Expr): Select {
  const everMapped = select({
    select: [field('distinct_id')],
    from: table('person_distinct_ids', 'mapped'),
    where: binary('IN', call('toString', field('person_id')), personIds),
  });
  return select({
    select: [
      alias(field('distinct_id'), 'mapped_distinct_id'),
      alias(call('toString', call('argMax', field('person_id'), field('version'))), 'mapped_person'),
      latest('is_deleted', 'mapped_deleted'),
    ],
    from: table('person_distinct_ids', 'pdi'),
    where: binary('IN', field('distinct_id'), everMapped),
    groupBy: [field('distinct_id')],
  });
}
