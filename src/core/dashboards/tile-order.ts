// A dashboard's tiles in reading order, as PostHog numbers them (`DashboardTile.sort_tiles_by_layout`
// with the "sm" layout): top to bottom, then left to right; a tile without a position sorts as if
// at (100, 100). A tile's `order` in the answer is its index in this order.

/** Where PostHog puts a tile whose "sm" layout lacks x or y. */
const UNPLACED = 100;

function coordinate(layouts: unknown, axis: 'x' | 'y'): number {
  if (typeof layouts !== 'object' || layouts === null) return UNPLACED;
  const sm = (layouts as Record<string, unknown>).sm;
  if (typeof sm !== 'object' || sm === null) return UNPLACED;
  const value = (sm as Record<string, unknown>)[axis];
  // PostHog compares whatever is stored; only numbers make sense as a position.
  return typeof value === 'number' && Number.isFinite(value) ? value : UNPLACED;
}

/** The tiles sorted by (y, x) of their "sm" layout; ties keep the given order (a stable sort, as Python's). */
export function sortTilesByLayout<T extends { layouts: unknown }>(tiles: readonly T[]): T[] {
  return tiles
    .map((tile, index) => ({ tile, index, y: coordinate(tile.layouts, 'y'), x: coordinate(tile.layouts, 'x') }))
    .sort((a, b) => a.y - b.y || a.x - b.x || a.index - b.index)
    .map(({ tile }) => tile);
}
