// PostHog's groups API as the groups pages read it: types, a type's groups (cursor pages), one
// group, its related people; and the EventsQuery of a group's events (the `$group_N` column).
import { api, qs } from '../api';
import type { QueryNode } from '../types';
import { EVENT_COLUMNS } from './events';

export interface GroupType {
  group_type: string;
  group_type_index: number;
  name_singular: string | null;
  name_plural: string | null;
}

export interface Group {
  group_type_index: number;
  group_key: string;
  group_properties: Record<string, unknown>;
  created_at: string;
}

export interface RelatedPerson {
  type: 'person';
  id: string;
  name: string;
  distinct_ids: string[];
  properties: Record<string, unknown>;
}

export interface RelatedGroup {
  type: 'group';
  group_type_index: number;
  group_key: string;
  properties: Record<string, unknown>;
}

/** PostHog's names: the plural (or the type itself) for lists, the singular for one group. */
export const pluralOf = (t: GroupType): string => t.name_plural || t.group_type;
export const singularOf = (t: GroupType): string => t.name_singular || t.group_type;
/** A group's display name: its `name` property when set, else its key. */
export const groupName = (g: Group): string => (typeof g.group_properties.name === 'string' && g.group_properties.name) || g.group_key;

export const groupTypes = (project: string, signal?: AbortSignal) => api<GroupType[]>(`/api/projects/${project}/groups_types/`, { signal });

export function groupsPage(project: string, index: number, search: string, cursor: string | null, signal?: AbortSignal) {
  return api<{ next: string | null; previous: string | null; results: Group[] }>(
    `/api/projects/${project}/groups/${qs({ group_type_index: index, search, cursor })}`, { signal });
}

export const findGroup = (project: string, index: number, key: string, signal?: AbortSignal) =>
  api<Group>(`/api/projects/${project}/groups/find/${qs({ group_type_index: index, group_key: key })}`, { signal });

export const relatedActors = (project: string, index: number, key: string, signal?: AbortSignal) =>
  api<(RelatedPerson | RelatedGroup)[]>(`/api/projects/${project}/groups/related/${qs({ group_type_index: index, id: key })}`, { signal });

/** The cursor of a page link the API gave (null: none). */
export const cursorIn = (link: string | null): string | null => (link ? new URL(link, location.origin).searchParams.get('cursor') : null);

/** A HogQL string constant. */
const quoted = (text: string): string => `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;

export function groupEventsQuery(index: number, key: string, limit: number, offset: number): QueryNode {
  return { kind: 'EventsQuery', select: EVENT_COLUMNS, where: [`$group_${index} = ${quoted(key)}`], orderBy: ['timestamp DESC'], after: 'all', limit, offset };
}

export const groupPath = (project: string, index: number, key?: string): string =>
  `/project/${project}/groups/${index}${key === undefined ? '' : `/${encodeURIComponent(key)}`}`;
