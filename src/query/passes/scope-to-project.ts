// The team guard: stamps the project id on every table a query names, wherever it sits (FROM,
// JOIN, subqueries in expressions, set operations). Runners and HogQL never add team filters
// themselves; the printer refuses any table this pass did not stamp. The walk is the shared
// transformer's, which cannot compile while a node has a field it does not visit.
import { InternalError } from '../../errors.js';
import type { Query, TableRef } from '../ast/nodes.js';
import { AstTransformer } from './transformer.js';

export function scopeToProject<Q extends Query>(query: Q, teamId: number): Q {
  if (!Number.isSafeInteger(teamId) || teamId <= 0) throw new InternalError('invalid_project_id', `invalid project id ${teamId}`);
  return new ProjectScoper(teamId).query(query) as Q;
}

class ProjectScoper extends AstTransformer {
  constructor(private readonly teamId: number) {
    super();
  }

  override table(t: TableRef): TableRef {
    return Object.freeze({ ...super.table(t), teamId: this.teamId });
  }
}
