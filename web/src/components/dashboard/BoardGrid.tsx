// A dashboard's tiles on the 12-column grid. While editing, each tile has a move handle (its top
// bar) and a resize handle (its bottom-right corner), both driven by pointer events: the pointer's
// travel in cells (one column = the grid's width / 12, one row = 56px + the gap) is laid over the
// tile's place as it moves, the other tiles making room; dropping hands the new cells up. Arrow
// keys on a handle move or resize by one cell. No library: this is all PostHog's grid needs here.
import { useRef, useState } from 'preact/hooks';
import { insightName } from '../../lib/query';
import type { DashboardFilters, Tile } from '../../types';
import { DashboardTile } from '../DashboardTile';
import { place, type Cell } from './layout';

const ROW_PX = 56;

interface Drag {
  id: number;
  mode: 'move' | 'resize';
  startX: number;
  startY: number;
  from: Cell;
  colPx: number;
  rowPx: number;
}

export function BoardGrid({ tiles, cells, editing, project, filters, onCells, onRemove, onShare }: {
  tiles: Tile[];
  cells: Map<number, Cell>;
  editing: boolean;
  project: string;
  filters: DashboardFilters | null;
  /** The cells after a drop (or a key press) on a handle. */
  onCells: (cells: Map<number, Cell>) => void;
  onRemove: (tile: Tile) => void;
  onShare: (tile: Tile) => void;
}) {
  const grid = useRef<HTMLDivElement>(null);
  const drag = useRef<Drag | null>(null);
  /** The cells while a handle is held; null when none is. */
  const [preview, setPreview] = useState<Map<number, Cell> | null>(null);
  const shown = preview ?? cells;

  const start = (event: PointerEvent, id: number, mode: Drag['mode']) => {
    const box = grid.current;
    const from = cells.get(id);
    if (!box || !from || event.button !== 0) return;
    event.preventDefault();
    (event.currentTarget as Element).setPointerCapture(event.pointerId);
    const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
    drag.current = { id, mode, startX: event.clientX, startY: event.clientY, from, colPx: (box.clientWidth + gap) / 12, rowPx: ROW_PX + gap };
    setPreview(cells);
  };
  const candidate = (event: PointerEvent): Map<number, Cell> | null => {
    const d = drag.current;
    if (!d) return null;
    const dx = Math.round((event.clientX - d.startX) / d.colPx);
    const dy = Math.round((event.clientY - d.startY) / d.rowPx);
    const next = d.mode === 'move' ? { ...d.from, x: d.from.x + dx, y: d.from.y + dy } : { ...d.from, w: d.from.w + dx, h: d.from.h + dy };
    if (d.mode === 'resize') next.w = Math.min(next.w, 12 - d.from.x);
    return place(cells, d.id, next);
  };
  const moveTo = (event: PointerEvent) => {
    const next = candidate(event);
    if (next) setPreview(next);
  };
  const drop = (event: PointerEvent) => {
    const next = candidate(event);
    drag.current = null;
    setPreview(null);
    if (next) onCells(next);
  };
  const cancel = () => {
    drag.current = null;
    setPreview(null);
  };
  const nudge = (event: KeyboardEvent, id: number, mode: Drag['mode']) => {
    const step: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const [dx, dy] = step[event.key] ?? [0, 0];
    const from = cells.get(id);
    if (!from || (dx === 0 && dy === 0)) return;
    event.preventDefault();
    const next = mode === 'move' ? { ...from, x: from.x + dx, y: from.y + dy } : { ...from, w: Math.min(from.w + dx, 12 - from.x), h: from.h + dy };
    onCells(place(cells, id, next));
  };
  const handlers = (id: number, mode: Drag['mode']) => ({
    onPointerDown: (e: PointerEvent) => start(e, id, mode),
    onPointerMove: moveTo,
    onPointerUp: drop,
    onPointerCancel: cancel,
    onKeyDown: (e: KeyboardEvent) => nudge(e, id, mode),
  });

  return (
    <div class={`board-grid${editing ? ' editing' : ''}`} ref={grid} data-testid="dashboard-grid">
      {tiles.map((tile) => {
        const cell = shown.get(tile.id) ?? { x: 0, y: 0, w: 6, h: 5 };
        const name = insightName(tile.insight!);
        const style = { '--x': cell.x + 1, '--y': cell.y + 1, '--w': cell.w, '--h': cell.h };
        const held = drag.current?.id === tile.id;
        return (
          <div key={tile.id} class={`board-cell${held ? ' held' : ''}`} style={style as any} data-testid="board-cell" data-tile={tile.id} data-cell={`${cell.x},${cell.y},${cell.w},${cell.h}`}>
            {editing && (
              <button type="button" class="board-move" aria-label={`Move ${name}`} title="Drag to move (or use the arrow keys)" {...handlers(tile.id, 'move')}>⠿ Move</button>
            )}
            <div class="board-tools">
              {!editing && <button type="button" class="icon-button" aria-label={`Share ${name}`} title="Share this insight" onClick={() => onShare(tile)}>⤴</button>}
              <button type="button" class="icon-button" aria-label={`Remove ${name} from dashboard`} title="Remove from dashboard" onClick={() => onRemove(tile)}>✕</button>
            </div>
            {/* The tile draws without its own grid place: this cell is the grid item. */}
            <DashboardTile tile={{ ...tile, layouts: {} }} project={project} filters={filters} />
            {editing && (
              <button type="button" class="board-resize" aria-label={`Resize ${name}`} title="Drag to resize (or use the arrow keys)" {...handlers(tile.id, 'resize')} />
            )}
          </div>
        );
      })}
    </div>
  );
}
