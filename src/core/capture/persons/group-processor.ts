// Groups: each group type of a project gets an index 0-4 on first sight (events put group keys in
// `$group_<index>` columns), and `$groupidentify` sets a group's properties.
import { LRUCache } from 'lru-cache';
import type { GroupRow, PersonsRepository, PersonWrites } from '../../../storage/events/persons-repository.js';
import { formatMicros } from '../../../storage/events/time.js';
import type { CapturedEvent } from '../types.js';

export const MAX_GROUP_TYPES = 5;

type Properties = Record<string, unknown>;

function isObject(value: unknown): value is Properties {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class GroupProcessor {
  private readonly typesByTeam = new LRUCache<number, Map<string, number>>({ max: 10_000 });
  private readonly groups = new LRUCache<string, GroupRow>({ max: 50_000 });

  constructor(private readonly repository: PersonsRepository) {}

  /** The five group-key columns of each event, and the group rows to write first. */
  async process(teamId: number, events: readonly CapturedEvent[], writes: PersonWrites): Promise<string[][]> {
    const types = await this.typesOf(teamId);
    const dirty = new Map<string, GroupRow>();
    const columns: string[][] = [];
    for (const event of events) {
      const keys = ['', '', '', '', ''];
      const groups = event.properties.$groups;
      if (isObject(groups)) {
        for (const [type, groupKey] of Object.entries(groups)) {
          const index = this.indexOf(teamId, types, type, writes);
          if (index !== undefined && groupKey !== null && groupKey !== undefined) keys[index] = String(groupKey);
        }
      }
      if (event.event === '$groupidentify') await this.identify(teamId, types, event, writes, dirty);
      columns.push(keys);
    }
    for (const row of dirty.values()) writes.groups.push(row);
    return columns;
  }

  forget(): void {
    this.typesByTeam.clear();
    this.groups.clear();
  }

  private async identify(
    teamId: number,
    types: Map<string, number>,
    event: CapturedEvent,
    writes: PersonWrites,
    dirty: Map<string, GroupRow>,
  ): Promise<void> {
    const { $group_type: type, $group_key: groupKey, $group_set: set } = event.properties;
    if (typeof type !== 'string' || type === '' || groupKey === undefined || groupKey === null) return;
    const index = this.indexOf(teamId, types, type, writes);
    if (index === undefined) return;
    const cacheKey = `${teamId}\u0000${index}\u0000${String(groupKey)}`;
    let group = dirty.get(cacheKey) ?? this.groups.get(cacheKey);
    if (!group) {
      const [stored] = await this.repository.groups(teamId, index, [String(groupKey)]);
      group = stored ?? {
        team_id: teamId,
        group_type_index: index,
        group_key: String(groupKey),
        properties: '{}',
        created_at: formatMicros(event.timestampUs).slice(0, 23),
        version: -1,
      };
    }
    const properties = { ...(JSON.parse(group.properties) as Properties), ...(isObject(set) ? set : {}) };
    const next = { ...group, properties: JSON.stringify(properties), version: dirty.has(cacheKey) ? group.version : group.version + 1 };
    dirty.set(cacheKey, next);
    this.groups.set(cacheKey, next);
  }

  private indexOf(teamId: number, types: Map<string, number>, type: string, writes: PersonWrites): number | undefined {
    const known = types.get(type);
    if (known !== undefined || types.size >= MAX_GROUP_TYPES) return known;
    const index = types.size;
    types.set(type, index);
    writes.groupTypes.push({ team_id: teamId, group_type: type, group_type_index: index, created_at: formatMicros(Date.now() * 1000).slice(0, 23) });
    return index;
  }

  private async typesOf(teamId: number): Promise<Map<string, number>> {
    let types = this.typesByTeam.get(teamId);
    if (!types) {
      types = new Map((await this.repository.groupTypes(teamId)).map((row) => [row.group_type, row.group_type_index]));
      this.typesByTeam.set(teamId, types);
    }
    return types;
  }
}
