// Tile places on a dashboard's 12-column grid, as PostHog stores them: `layouts.sm = {x, y, w, h}`
// in grid cells. Moving or resizing one tile pushes the tiles it lands on down, then every tile
// rises as far as it can (react-grid-layout's vertical compaction, which PostHog's grid uses).

export interface Cell { x: number; y: number; w: number; h: number }

export const COLUMNS = 12;
export const MIN_W = 1;
export const MIN_H = 2;
/** PostHog's default for a tile without a place: half the width, five rows. */
const DEFAULT: Omit<Cell, 'x' | 'y'> = { w: 6, h: 5 };

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? Math.round(v) : null);

/** A stored `sm` layout made valid (inside the grid, at least the minimum size), or null. */
export function cellOf(layouts: unknown): Cell | null {
  const sm = (layouts as { sm?: Record<string, unknown> } | null | undefined)?.sm;
  if (!sm || typeof sm !== 'object') return null;
  const [x, y, w, h] = [num(sm.x), num(sm.y), num(sm.w), num(sm.h)];
  if (x === null || y === null) return null;
  const width = Math.max(MIN_W, Math.min(COLUMNS, w ?? DEFAULT.w));
  return { x: Math.max(0, Math.min(COLUMNS - width, x)), y: Math.max(0, y), w: width, h: Math.max(MIN_H, h ?? DEFAULT.h) };
}

const overlap = (a: Cell, b: Cell) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * Every tile's cell: its stored one, else the next free half-row slot after the placed ones (in
 * the order given, which is the dashboard's reading order).
 */
export function cellsOf(tiles: readonly { id: number; layouts?: unknown }[]): Map<number, Cell> {
  const cells = new Map<number, Cell>();
  for (const tile of tiles) {
    const cell = cellOf(tile.layouts);
    if (cell) cells.set(tile.id, cell);
  }
  let bottom = Math.max(0, ...[...cells.values()].map((c) => c.y + c.h));
  let slot = 0;
  for (const tile of tiles) {
    if (cells.has(tile.id)) continue;
    cells.set(tile.id, { x: (slot % 2) * DEFAULT.w, y: bottom, ...DEFAULT });
    slot++;
    if (slot % 2 === 0) bottom += DEFAULT.h;
  }
  return compact(cells);
}

/** Tiles risen as far as they go, top to bottom then left to right (none overlapping). */
export function compact(cells: Map<number, Cell>, fixed: number | null = null): Map<number, Cell> {
  const order = [...cells.entries()].sort(([ia, a], [ib, b]) => a.y - b.y || a.x - b.x || (ia === fixed ? -1 : ib === fixed ? 1 : 0));
  const done: Cell[] = [];
  const out = new Map<number, Cell>();
  for (const [id, cell] of order) {
    let next = { ...cell, y: 0 };
    // Down from the top until nothing placed before it is in the way.
    for (;;) {
      const blocker = done.find((other) => overlap(next, other));
      if (!blocker) break;
      next = { ...next, y: blocker.y + blocker.h };
    }
    done.push(next);
    out.set(id, next);
  }
  return out;
}

/** The cells with one tile moved or resized to `cell` (clamped to the grid), the others making room. */
export function place(cells: Map<number, Cell>, id: number, cell: Cell): Map<number, Cell> {
  const w = Math.max(MIN_W, Math.min(COLUMNS, Math.round(cell.w)));
  const moved: Cell = { w, h: Math.max(MIN_H, Math.round(cell.h)), x: Math.max(0, Math.min(COLUMNS - w, Math.round(cell.x))), y: Math.max(0, Math.round(cell.y)) };
  const next = new Map(cells);
  next.set(id, moved);
  // Whatever the moved tile covers goes below it; the compaction then packs everything upwards,
  // the moved tile first among equals so it keeps the place it was dropped on.
  for (const [other, c] of next) {
    if (other !== id && overlap(c, moved)) next.set(other, { ...c, y: moved.y + moved.h });
  }
  return compact(next, id);
}

export const sameCell = (a: Cell | null | undefined, b: Cell | null | undefined) => !!a && !!b && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
