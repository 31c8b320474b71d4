// What HogQLMetadata needs of a project: the shared parser, and the definitions a HogQLQuery names
// (cohorts, actions), resolved as for a run. The query's property filters are left out of that
// resolution: HogQL among them would have its property types read from the engine, and checking
// a query never runs anything there.
import type { MetadataDeps } from '../../query/metadata/metadata.js';
import { sharedHogQLParser } from '../../query/hogql/parse/index.js';
import { EMPTY_GROUP } from '../../query/nodes/read-properties.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { InsightQueryService } from './service.js';

export function metadataDeps(queries: InsightQueryService, project: ProjectRow): MetadataDeps {
  return {
    parser: sharedHogQLParser(),
    projectId: project.id,
    contextFor: (query) => queries.contextOf(project, { ...query, properties: EMPTY_GROUP, filterTestAccounts: false }),
  };
}
