// PostHog's groups resource: a project's group types (as capture numbered them), its groups of one
// type (newest first, cursor pages of 100, a search over key and properties), one group by key, the
// property keys of each type, and a group's related actors (persons and groups of other types that
// shared an event with it in the last 90 days). Every read is a HogQL query, so the team guard holds.
import { NotFoundError, ValidationError } from '../../errors.js';
import { readInsightQuery } from '../../query/runners/registry.js';
import type { Json } from '../../query/nodes/read-json.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import type { ProjectRow } from '../../storage/meta/repositories/projects.js';
import type { AccessResolver } from '../access.js';
import type { Principal } from '../auth/principal.js';
import type { InsightQueryService } from '../queries/service.js';

export const GROUPS_PAGE_SIZE = 100;

export interface GroupView {
  group_type_index: number;
  group_key: string;
  group_properties: Record<string, unknown>;
  created_at: string;
}

/** ?group_type_index=: PostHog's 400 when missing, and 0-4 only. */
export function readGroupTypeIndex(value: string | undefined): number {
  if (value === undefined || value === '') {
    throw new ValidationError('You must pass ?group_type_index= in this URL. To get a list of valid group types, call /api/:project_id/groups_types/.', 'group_type_index');
  }
  const index = Number(value);
  if (!Number.isInteger(index) || index < 0 || index > 4) throw new ValidationError('group_type_index must be an integer from 0 to 4.', 'group_type_index');
  return index;
}

const properties = (raw: unknown): Record<string, unknown> => {
  if (raw && typeof raw === 'object') return raw as Record<string, unknown>;
  try {
    const parsed = JSON.parse(String(raw ?? '{}')) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const iso = (value: unknown): string => {
  const text = String(value ?? '');
  return text.includes('T') ? text : `${text.replace(' ', 'T')}Z`;
};

export class GroupsService {
  constructor(
    private readonly access: AccessResolver,
    private readonly queries: InsightQueryService,
    private readonly groupTypesOf: (teamId: number) => Promise<readonly { group_type: string; group_type_index: number }[]>,
    private readonly repositories: Repositories,
  ) {}

  async types(principal: Principal, projectParam: string) {
    const project = await this.access.project(principal, projectParam);
    const rows = await this.groupTypesOf(project.id);
    // Display names live in the project's settings (null: PostHog's "use the group type itself").
    const names = namesIn(project);
    return rows.map((r) => ({
      group_type: r.group_type, group_type_index: r.group_type_index,
      name_singular: names[r.group_type_index]?.name_singular ?? null, name_plural: names[r.group_type_index]?.name_plural ?? null,
      detail_dashboard: null, default_columns: null, created_at: iso((r as { created_at?: string }).created_at ?? ''),
    }));
  }

  /** PostHog's update_metadata: each row names a known type's index and sets its display names. */
  async updateMetadata(principal: Principal, projectParam: string, body: unknown) {
    const project = await this.access.project(principal, projectParam);
    if (!Array.isArray(body)) throw new ValidationError('Expected a list of group types.', null, 'not_a_list');
    const known = new Set((await this.groupTypesOf(project.id)).map((r) => r.group_type_index));
    const changes = body.map((row, i) => readNames(row, i, known));
    await this.repositories.transaction(async (repos) => {
      const row = await repos.projects.findById(project.id);
      if (!row) throw new NotFoundError();
      const settings = JSON.parse(row.settings) as Record<string, unknown>;
      const names = { ...(settings.group_type_names as Record<string, unknown> | undefined) };
      for (const { index, ...change } of changes) names[index] = { ...(names[index] as object | undefined), ...change };
      settings.group_type_names = names;
      await repos.projects.update(row.id, row.organization_id, { settings: JSON.stringify(settings) });
    });
    return this.types(principal, projectParam);
  }

  /** One page, newest first; `offset` comes from the cursor. */
  async list(principal: Principal, projectParam: string, index: number, options: { search?: string; groupKey?: string; offset: number }) {
    const project = await this.access.project(principal, projectParam);
    const search = options.search ?? '';
    const rows = await this.hogql(project, `
      SELECT key, properties, created_at FROM groups
      WHERE index = {index}
        AND positionCaseInsensitive(key, {key_part}) > 0
        AND ({search} = '' OR positionCaseInsensitive(toString(properties), {search}) > 0 OR lower(key) = lower({search}))
      ORDER BY created_at DESC, key ASC
      LIMIT ${GROUPS_PAGE_SIZE + 1} OFFSET ${Math.trunc(options.offset)}`, { index, key_part: options.groupKey ?? '', search });
    return { results: rows.slice(0, GROUPS_PAGE_SIZE).map((r) => groupView(index, r)), hasMore: rows.length > GROUPS_PAGE_SIZE };
  }

  async find(principal: Principal, projectParam: string, index: number, groupKey: string): Promise<GroupView> {
    const project = await this.access.project(principal, projectParam);
    const [row] = await this.hogql(project, 'SELECT key, properties, created_at FROM groups WHERE index = {index} AND key = {key} LIMIT 1', { index, key: groupKey });
    if (!row) throw new NotFoundError();
    return groupView(index, row);
  }

  /** {"<index>": [{name, count}]}: each type's property keys, most groups first. */
  async propertyDefinitions(principal: Principal, projectParam: string) {
    const project = await this.access.project(principal, projectParam);
    const rows = await this.hogql(project, `
      SELECT index, name, count() AS c FROM (SELECT index, arrayJoin(JSONExtractKeys(toString(properties))) AS name FROM groups)
      GROUP BY index, name ORDER BY index ASC, c DESC, name ASC LIMIT 10000`, {});
    const out: Record<string, { name: string; count: number }[]> = {};
    for (const [index, name, count] of rows) (out[String(index)] ??= []).push({ name: String(name), count: Number(count) });
    return out;
  }

  /** PostHog's RelatedActorsQuery for a group: persons, then groups of the other types, from the last 90 days' events. */
  async related(principal: Principal, projectParam: string, index: number, id: string) {
    const project = await this.access.project(principal, projectParam);
    const column = `$group_${index}`;
    const people = await this.hogql(project, `
      SELECT person.id, any(person.properties), min(person.created_at), groupUniqArray(distinct_id)
      FROM events WHERE timestamp > now() - INTERVAL 90 DAY AND ${column} = {id}
      GROUP BY person.id ORDER BY person.id LIMIT 10000`, { id });
    const related: object[] = people.map(([personId, props, created, distinctIds]) => {
      const p = properties(props);
      const ids = [...(distinctIds as string[])].sort();
      return {
        type: 'person', id: String(personId), uuid: String(personId), created_at: iso(created), properties: p, is_identified: false,
        name: String(p.email ?? p.name ?? ids[0] ?? personId), distinct_ids: ids, matched_recordings: [], value_at_data_point: null,
      };
    });
    for (const other of [0, 1, 2, 3, 4].filter((i) => i !== index)) {
      const groups = await this.hogql(project, `
        SELECT g.key, g.properties, g.created_at FROM groups AS g
        WHERE g.index = {other} AND g.key IN (
          SELECT $group_${other} FROM events WHERE timestamp > now() - INTERVAL 90 DAY AND ${column} = {id} AND $group_${other} != '')
        ORDER BY g.key LIMIT 10000`, { other, id });
      for (const r of groups) {
        related.push({ type: 'group', group_type_index: other, group_key: String(r[0]), id: String(r[0]), created_at: iso(r[2]), properties: properties(r[1]), matched_recordings: [], value_at_data_point: null });
      }
    }
    return related;
  }

  private async hogql(project: ProjectRow, query: string, values: Record<string, string | number>): Promise<unknown[][]> {
    const node = readInsightQuery({ kind: 'HogQLQuery', query, values } as unknown as Json);
    const outcome = await this.queries.runInProject(project, node);
    return outcome.results as unknown[][];
  }
}

type Names = { name_singular?: string | null; name_plural?: string | null };

function namesIn(project: ProjectRow): Record<string, Names> {
  const stored = (JSON.parse(project.settings) as Record<string, unknown>).group_type_names;
  return stored && typeof stored === 'object' ? (stored as Record<string, Names>) : {};
}

function readNames(row: unknown, i: number, known: Set<number>): Names & { index: number } {
  const item = (row && typeof row === 'object' ? row : {}) as Record<string, unknown>;
  const index = item.group_type_index;
  if (typeof index !== 'number' || !known.has(index)) throw new NotFoundError();
  const out: Names & { index: number } = { index };
  for (const field of ['name_singular', 'name_plural'] as const) {
    if (!(field in item)) continue;
    const value = item[field];
    if (value !== null && (typeof value !== 'string' || value.length > 400)) throw new ValidationError('Ensure this field has no more than 400 characters.', `${i}.${field}`);
    out[field] = value === '' ? null : (value as string | null);
  }
  return out;
}

function groupView(index: number, row: unknown[]): GroupView {
  return { group_type_index: index, group_key: String(row[0]), group_properties: properties(row[1]), created_at: iso(row[2]) };
}
