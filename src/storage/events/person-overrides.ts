// Events carry the person they had when stored. After a merge, the override table names the
// surviving person of each moved distinct id; reads join it to count one person as one.
import { TABLES } from './tables.js';

/**
 * The query engine builds the same join as AST (query/catalog/fields.ts); this plain-SQL
 * form is the independent reference that tests and the query benchmark check the engine against.
 *
 * SQL for a subquery of a project's events with `person_id` resolved through merges. The caller
 * binds `{team:UInt64}`; `database` comes from configuration, never from a request.
 */
export function eventsWithResolvedPersons(database: string): string {
  return `SELECT e.* REPLACE (if(notEmpty(o.distinct_id), o.person_id, e.person_id) AS person_id)
    FROM ${database}.${TABLES.events} AS e
    LEFT JOIN (
      SELECT distinct_id, argMax(person_id, version) AS person_id
      FROM ${database}.${TABLES.personDistinctIdOverrides}
      WHERE team_id = {team:UInt64}
      GROUP BY distinct_id
      HAVING NOT argMax(is_deleted, version)
    ) AS o ON e.distinct_id = o.distinct_id
    WHERE e.team_id = {team:UInt64}`;
}
