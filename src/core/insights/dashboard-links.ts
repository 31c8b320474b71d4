// An insight's deprecated, writable `dashboards` list: setting it adds tiles (or brings back a
// removed one) and soft-deletes the tiles of dashboards no longer listed, so `dashboards`,
// `dashboard_tiles` and each dashboard's tiles always agree.
import { ValidationError } from '../../errors.js';
import type { Repositories } from '../../storage/meta/repositories/index.js';
import { liveTiles } from './view.js';

export interface DashboardRef {
  id: number;
  name: string | null;
}

export interface DashboardLinkChange {
  before: DashboardRef[];
  after: DashboardRef[];
}

/** Applies the list; returns what changed (for the activity log), or null when nothing did. */
export async function setInsightDashboards(
  repos: Repositories,
  teamId: number,
  insightId: number,
  wanted: readonly number[],
  now: string,
): Promise<DashboardLinkChange | null> {
  const dashboards = await repos.dashboards.findMany(teamId, wanted);
  const found = new Map(dashboards.map((d) => [d.id, d]));
  const missing = wanted.find((id) => !found.has(id));
  // Another project's dashboard reads as missing too: existence elsewhere is never revealed.
  if (missing !== undefined) throw new ValidationError(`Invalid pk "${missing}" - object does not exist.`, 'dashboards', 'does_not_exist');

  const tiles = await repos.dashboards.tilesOfInsights(teamId, [insightId]);
  const current = liveTiles(tiles);
  // Deleted dashboards in the list are skipped, as PostHog does.
  const target = new Set(wanted.filter((id) => found.get(id)!.deleted === 0));
  const currentIds = new Set(current.map((t) => t.dashboard_id));
  if (target.size === currentIds.size && [...target].every((id) => currentIds.has(id))) return null;

  for (const id of target) {
    if (currentIds.has(id)) continue;
    const old = tiles.find((t) => t.dashboard_id === id);
    if (old) await repos.dashboards.updateTile(teamId, id, old.id, { deleted: 0 });
    else await repos.dashboards.insertTile(teamId, { dashboard_id: id, insight_id: insightId, layouts: '{}', color: null, deleted: null, created_at: now });
  }
  for (const tile of current) if (!target.has(tile.dashboard_id)) await repos.dashboards.updateTile(teamId, tile.dashboard_id, tile.id, { deleted: 1 });

  const names = new Map((await repos.dashboards.findMany(teamId, [...currentIds])).map((d) => [d.id, d.name]));
  return {
    before: [...currentIds].map((id) => ({ id, name: names.get(id) ?? null })),
    after: [...target].map((id) => ({ id, name: found.get(id)!.name })),
  };
}
