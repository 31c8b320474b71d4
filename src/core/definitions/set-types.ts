// The property types people set in Data management, as the query engine takes them: by the
// engine's property key (owner and name), Duration read as a number.
import type { PropertyType } from '../../query/catalog/property-type.js';
import { propertyRefKey, type PropertyOwner } from '../../query/hogql/property-types.js';
import type { DefinitionMetadataRepository } from '../../storage/meta/repositories/definition-metadata.js';

const ownerOf = (owner: string): PropertyOwner | null => {
  if (owner === 'event' || owner === 'person') return owner;
  const group = /^group:([0-4])$/.exec(owner);
  return group ? { group: Number(group[1]) } : null;
};

/** Duration is a number of seconds: HogQL reads it as Numeric, as PostHog's HogQL does. */
const asEngineType = (type: string): PropertyType | null =>
  type === 'Duration' ? 'Numeric' : type === 'Numeric' || type === 'String' || type === 'Boolean' || type === 'DateTime' ? type : null;

export async function setPropertyTypes(repository: DefinitionMetadataRepository, projectId: number): Promise<ReadonlyMap<string, PropertyType>> {
  const types = new Map<string, PropertyType>();
  for (const row of await repository.setPropertyTypes(projectId)) {
    const owner = ownerOf(row.owner);
    const type = asEngineType(row.property_type);
    if (owner !== null && type !== null) types.set(propertyRefKey(owner, row.name), type);
  }
  return types;
}
