// Cohorts as the query engine reads them: the ones a query names, with every cohort they name in
// turn, read from the metadata store for one run. A cohort the project does not have (or has
// deleted), or one that expands past the budget (query/cohorts/budget.ts), is the caller's
// mistake: a 400 naming where the query used it.
import { ValidationError } from '../../errors.js';
import { HogQLQueryError } from '../../query/hogql/errors.js';
import { budgetExcess, MAX_COHORT_NESTING, measureCohort } from '../../query/cohorts/budget.js';
import { readCohortFilters } from '../../query/cohorts/read.js';
import { referencedActions, referencedCohorts, type CohortDefinition } from '../../query/cohorts/schema.js';
import type { CohortQueryRow, CohortsRepository } from '../../storage/meta/repositories/cohorts.js';

/** A cohort id a query names and where (the attr of the 400 when it does not exist). */
export interface NamedCohort {
  readonly id: number;
  readonly path: string;
}

export function definitionOf(row: CohortQueryRow): CohortDefinition {
  const isStatic = row.is_static === 1;
  return Object.freeze({
    id: row.id,
    name: row.name,
    isStatic,
    properties: isStatic || row.filters === null ? null : readCohortFilters(JSON.parse(row.filters)),
    version: row.version,
  });
}

export class CohortDefinitions {
  constructor(private readonly cohorts: CohortsRepository) {}

  /** HogQL's IN COHORT 'name': each name's live cohort (the newest of that name), or a 400. */
  async idsByName(projectId: number, names: readonly string[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (const name of names) {
      const id = await this.cohorts.liveIdByName(projectId, name);
      if (id === undefined) throw new HogQLQueryError(`Could not find a cohort with the name '${name}'`);
      ids.set(name, id);
    }
    return ids;
  }

  /** The project's live dynamic cohorts (HogQL's cohort_people holds their members). */
  async liveDynamicIds(projectId: number): Promise<number[]> {
    return (await this.cohorts.liveDynamicCriteria(projectId)).map((row) => row.id);
  }

  /** The named cohorts and all they name, by id; and the actions their conditions use. */
  async resolve(projectId: number, named: readonly NamedCohort[]): Promise<{ cohorts: Map<number, CohortDefinition>; actionIds: number[] }> {
    const cohorts = new Map<number, CohortDefinition>();
    let wanted = [...new Set(named.map((n) => n.id))];
    let first = true;
    for (let level = 0; wanted.length > 0; level++) {
      // Deeper than the budget reads no further (a chain saved before the budget may be long).
      if (level > MAX_COHORT_NESTING + 1) throw budgetError({ depth: level, nodes: 0 }, named[0]!);
      const rows = await this.cohorts.findLiveForQuery(projectId, wanted);
      const found = new Set(rows.map((row) => row.id));
      // A cohort named by a stored cohort that was deleted since matches nobody (PostHog's fake key).
      const gone = wanted.find((id) => !found.has(id));
      if (gone !== undefined && first) {
        const where = named.find((n) => n.id === gone)!;
        throw new ValidationError(`Could not find cohort with ID ${gone}`, where.path, 'invalid_input');
      }
      for (const row of rows) cohorts.set(row.id, definitionOf(row));
      for (const id of wanted) if (!found.has(id)) cohorts.set(id, Object.freeze({ id, name: '', isStatic: true, properties: null, version: 0 }));
      wanted = [...new Set(rows.flatMap((row) => referencedCohorts(cohorts.get(row.id)!.properties)))].filter((id) => !cohorts.has(id));
      first = false;
    }
    const criteriaOf = (id: number) => cohorts.get(id)?.properties ?? null;
    const measured = new Set<number>();
    for (const mention of named) {
      if (measured.has(mention.id)) continue;
      measured.add(mention.id);
      const properties = criteriaOf(mention.id);
      if (properties !== null) {
        const expansion = measureCohort(properties, criteriaOf, mention.id);
        if (budgetExcess(expansion) !== null) throw budgetError(expansion, mention);
      }
    }
    const actionIds = [...new Set([...cohorts.values()].flatMap((c) => referencedActions(c.properties)))];
    return { cohorts, actionIds };
  }
}

function budgetError(expansion: { depth: number; nodes: number }, where: NamedCohort): ValidationError {
  return new ValidationError(budgetExcess(expansion, `Cohort ${where.id}`)!, where.path, 'cohort_budget');
}
