// The actors behind a node or edge of a paths answer (PostHog's pathStartKey, pathEndKey and
// pathDropoffKey, in the InsightActorsQuery or the source's pathsFilter): people with a session
// path that leaves the start node (towards the end node when both are given), reaches the end
// node, or ends at the drop-off node.
import { actorPage } from '../../actors/load.js';
import { alias, and, binary, call, constant, eq, field, lambda, select, subquery } from '../../ast/build.js';
import type { Expr } from '../../ast/nodes.js';
import type { QueryContext } from '../../context.js';
import type { QueryRun } from '../../execute.js';
import { fail, readOptionalString, type JsonObject } from '../../nodes/read-json.js';
import type { PathsQuery } from '../../nodes/schema.js';
import type { ActorsOutput, ActorsPageRequest } from '../kind.js';
import { pathsOf } from './runner.js';
import { pathNodes } from './sql.js';

const key = (target: JsonObject, name: 'pathStartKey' | 'pathEndKey' | 'pathDropoffKey', query: PathsQuery): string | null =>
  readOptionalString(target[name], name, 2_000) || query.pathsFilter[name];

export async function pathActors(query: PathsQuery, target: JsonObject, context: QueryContext, run: QueryRun, page: ActorsPageRequest): Promise<ActorsOutput> {
  const start = key(target, 'pathStartKey', query);
  const end = key(target, 'pathEndKey', query);
  const dropoff = key(target, 'pathDropoffKey', query);
  if (start === null && end === null && dropoff === null) fail('pathStartKey', 'Give the node: pathStartKey, pathEndKey or pathDropoffKey.', 'required');
  const { paths } = await pathsOf(query, context, run);
  if (paths === null) return { columns: ['person'], results: [], hasMore: false };
  const nodes = field('pa_nodes');
  const at = (i: Expr) => call('arrayElement', nodes, i);
  const n = field('pa_n');
  const i = field('pa_i');
  const last = call('length', nodes);
  const leaves = (node: string, next: string | null) => call('arrayExists',
    lambda(['pa_n', 'pa_i'], and(eq(n, constant(node)), binary('<', i, last), next === null ? undefined : eq(at(binary('+', i, constant(1, 'Int64'))), constant(next)))),
    nodes, call('arrayEnumerate', nodes));
  const condition = and(
    start !== null ? leaves(start, end) : undefined,
    start === null && end !== null ? call('has', nodes, constant(end)) : undefined,
    dropoff !== null ? eq(at(last), constant(dropoff)) : undefined,
  );
  const withNodes = select({ select: [field('pa_actor'), alias(pathNodes(field('pa_path')), 'pa_nodes')], from: subquery(paths, 'session_paths') });
  const matching = select({ select: [alias(field('pa_actor'), 'actor')], distinct: true, from: subquery(withNodes, 'path_nodes'), where: condition });
  const { actors, hasMore } = await actorPage(run, matching, page);
  return { columns: ['person'], results: actors.map(({ actor }) => [actor]), hasMore };
}
