// Data management: the project's event and property definitions (PostHog's taxonomy endpoints)
// and the edits people make to them: description, tags, verified, hidden, a property's type.
import { api, qs } from '../api';
import type { Page } from '../types';

export type DefinitionKind = 'events' | 'properties';
export type PropertyOwner = 'event' | 'person';

export interface UserBasic { id: number; first_name: string; email: string }

export interface Definition {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  verified: boolean;
  verified_at: string | null;
  verified_by: UserBasic | null;
  hidden: boolean;
  updated_at: string | null;
  updated_by: UserBasic | null;
  // Event definitions only.
  last_seen_at?: string;
  created_at?: string;
  volume_30_day?: number | null;
  // Property definitions only.
  property_type?: string | null;
  is_numerical?: boolean;
}

/** PostHog's property types; "data" in the picker means: typed from the values seen (null). */
export const PROPERTY_TYPES = ['String', 'Numeric', 'Boolean', 'DateTime', 'Duration'] as const;

const PATHS: Record<DefinitionKind, string> = { events: 'event_definitions', properties: 'property_definitions' };

export function listDefinitions(project: string, kind: DefinitionKind, search: string, owner: PropertyOwner, signal: AbortSignal): Promise<Page<Definition>> {
  const params = kind === 'events' ? { search, limit: 200, ordering: '-volume_30_day' } : { search, limit: 200, type: owner };
  return api<Page<Definition>>(`/api/projects/${project}/${PATHS[kind]}/${qs(params)}`, { signal });
}

export function getDefinition(project: string, kind: DefinitionKind, id: string, signal?: AbortSignal): Promise<Definition> {
  return api<Definition>(`/api/projects/${project}/${PATHS[kind]}/${encodeURIComponent(id)}/`, { signal });
}

export interface DefinitionEdit {
  description: string;
  tags: string[];
  verified: boolean;
  hidden: boolean;
  property_type?: string | null;
}

export function updateDefinition(project: string, kind: DefinitionKind, id: string, edit: DefinitionEdit): Promise<Definition> {
  return api<Definition>(`/api/projects/${project}/${PATHS[kind]}/${encodeURIComponent(id)}/`, { method: 'PATCH', body: edit });
}

/** "a, b ,c" as tags (the server trims and lowercases them too). */
export const parseTags = (text: string): string[] => text.split(',').map((t) => t.trim()).filter((t) => t !== '');
