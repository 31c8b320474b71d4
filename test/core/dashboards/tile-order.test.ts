// PostHog's tile reading order (sort_tiles_by_layout on "sm"): y, then x, a missing coordinate as 100.
import { describe, expect, it } from 'vitest';
import { sortTilesByLayout } from '../../../src/core/dashboards/tile-order.js';

const tile = (name: string, layouts: unknown) => ({ name, layouts });
const names = (tiles: { name: string }[]) => tiles.map((t) => t.name);

describe('sortTilesByLayout', () => {
  it('reads top to bottom, then left to right, on the sm layout only', () => {
    const tiles = [
      tile('low', { sm: { x: 0, y: 5 } }),
      tile('top right', { sm: { x: 6, y: 0 }, xs: { x: 0, y: 0 } }),
      tile('top left', { sm: { x: 0, y: 0 }, xs: { x: 0, y: 50 } }),
    ];
    expect(names(sortTilesByLayout(tiles))).toEqual(['top left', 'top right', 'low']);
  });

  it('puts a tile without a numeric position at (100, 100), ties in the given order', () => {
    const tiles = [
      tile('no layout', {}),
      tile('string y', { sm: { x: 0, y: '1' } }),
      tile('null', null),
      tile('below 100', { sm: { x: 0, y: 99 } }),
      tile('x only', { sm: { x: 3 } }),
    ];
    expect(names(sortTilesByLayout(tiles))).toEqual(['below 100', 'string y', 'x only', 'no layout', 'null']);
  });
});
