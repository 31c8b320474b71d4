// HogQL's `cohort_people` table: person_id, cohort_id and the `person` lazy join, as PostHog's
// schema gives them (team_id stays the guard's). Its rows are the cohorts' member selects the
// query context resolved (query/cohorts/people-table.ts); each reads only guarded store tables.
import { field, subquery } from '../../ast/build.js';
import type { Expr, FromItem, Join, Select, Union } from '../../ast/nodes.js';
import { HogQLQueryError } from '../errors.js';
import { DistinctIdsTable, type Chain, type ScopedTable, type TableContext } from './tables.js';
import { typed } from './types.js';

export class CohortPeopleTable implements ScopedTable {
  readonly from: FromItem;
  /** The person lazy join reads as person_distinct_ids' does: persons joined on person_id. */
  private readonly person: DistinctIdsTable;

  constructor(readonly alias: string, context: TableContext) {
    if (!context.cohortPeople) throw new HogQLQueryError('Unknown table `cohort_people`.');
    this.from = subquery(context.cohortPeople(), alias);
    this.person = new DistinctIdsTable(alias, context);
  }

  asterisk(): string[] {
    return ['person_id', 'cohort_id'];
  }

  resolve(chain: Chain): Expr | undefined {
    const [head] = chain;
    if (head === 'person_id' || head === 'cohort_id') {
      if (chain.length > 1) throw new HogQLQueryError(`Unable to resolve field: ${chain.join('.')}`);
      return typed(field(head, this.alias), head === 'person_id' ? 'uuid' : 'integer', false);
    }
    return head === 'person' ? this.person.resolve(chain) : undefined;
  }

  joins(): Join[] {
    return this.person.joins();
  }
}

export type CohortPeopleRows = () => Select | Union;
