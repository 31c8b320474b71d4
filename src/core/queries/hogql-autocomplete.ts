// What HogQLAutocomplete needs of a project: the shared parser, and the project's property
// definitions (the definitions API's listing, so only the asking project's names, with its access
// check). Those are computed from the stored events, and an editor asks on every keystroke after
// `properties.`, so each answer is kept a minute per project, owner and typed word (bounded).
import { LRUCache } from 'lru-cache';
import type { AutocompleteDeps, PropertyDefinitionsPage } from '../../query/autocomplete/autocomplete.js';
import type { PropertyOwner } from '../../query/autocomplete/schema.js';
import { sharedHogQLParser } from '../../query/hogql/parse/index.js';
import type { Principal } from '../auth/principal.js';
import type { DefinitionsService } from '../definitions/service.js';

const CACHE_MS = 60_000;
/** One cache per definitions service (one per server), so two servers in a process never share answers. */
const caches = new WeakMap<DefinitionsService, LRUCache<string, PropertyDefinitionsPage>>();

function cacheOf(definitions: DefinitionsService): LRUCache<string, PropertyDefinitionsPage> {
  let cache = caches.get(definitions);
  if (!cache) caches.set(definitions, (cache = new LRUCache<string, PropertyDefinitionsPage>({ max: 2_000, ttl: CACHE_MS })));
  return cache;
}

const GROUP_TYPES = [0, 1, 2, 3, 4];

export interface AutocompleteProject {
  readonly principal: Principal;
  /** The project as the request named it (checked again by the definitions listing). */
  readonly projectParam: string;
  readonly projectId: number;
}

export function autocompleteDeps(definitions: DefinitionsService, project: AutocompleteProject): AutocompleteDeps {
  const list = async (type: string, groupTypeIndex: number | null, contains: string, limit: number): Promise<PropertyDefinitionsPage> => {
    const query: Record<string, unknown> = { type, search: contains };
    if (groupTypeIndex !== null) query.group_type_index = String(groupTypeIndex);
    const { count, results } = await definitions.listProperties(project.principal, project.projectParam, query, { limit, offset: 0 });
    return { total: count, properties: results.map((r) => ({ name: r.name, property_type: r.property_type })) };
  };
  const uncached = async (owner: PropertyOwner, contains: string, limit: number): Promise<PropertyDefinitionsPage> => {
    if (owner === 'event' || owner === 'person') return list(owner, null, contains, limit);
    if (owner !== 'groups') return list('group', owner.group, contains, limit);
    // The groups table holds every group type: their definitions together, each name once.
    const pages = await Promise.all(GROUP_TYPES.map((index) => list('group', index, contains, limit)));
    const seen = new Map<string, string | null>();
    for (const page of pages) for (const p of page.properties) if (!seen.has(p.name)) seen.set(p.name, p.property_type);
    const properties = [...seen].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).slice(0, limit).map(([name, property_type]) => ({ name, property_type }));
    return { total: Math.max(seen.size, ...pages.map((p) => p.total)), properties };
  };
  const cache = cacheOf(definitions);
  return {
    parser: sharedHogQLParser(),
    projectId: project.projectId,
    propertyDefinitions: async (owner, contains, limit) => {
      const key = `${project.projectId}\u0000${JSON.stringify(owner)}\u0000${limit}\u0000${contains}`;
      const hit = cache.get(key);
      if (hit) return hit;
      const page = await uncached(owner, contains, limit);
      cache.set(key, page);
      return page;
    },
  };
}
