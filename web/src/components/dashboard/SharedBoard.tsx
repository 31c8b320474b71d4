// A shared dashboard, read-only: its name, description, the date range it is seen through, and its
// tiles in their grid places, each drawn by DashboardTile without links or edit controls.
import type { Dashboard } from '../../types';
import { DashboardTile } from '../DashboardTile';
import { cellsOf } from './layout';

export function SharedBoard({ dashboard }: { dashboard: Dashboard }) {
  const tiles = (dashboard.tiles ?? []).filter((tile) => tile.insight);
  const cells = cellsOf(tiles);
  const filters = dashboard.filters ?? null;
  // Read-only tiles ask nothing of the project; it only names them.
  const project = String((dashboard as Dashboard & { team_id?: number }).team_id ?? '');
  const range = filters?.date_from || filters?.date_to ? `${filters.date_from ?? '…'} → ${filters.date_to ?? 'now'}` : null;
  return (
    <>
      <h1 data-testid="dashboard-name">{dashboard.name || 'Untitled'}</h1>
      {dashboard.description && <p class="muted">{dashboard.description}</p>}
      {range && <p class="muted" data-testid="shared-range">Dates: {range}</p>}
      {tiles.length === 0 && <p class="empty">This dashboard has no insights.</p>}
      <div class="board-grid" data-testid="dashboard-grid">
        {tiles.map((tile) => {
          const cell = cells.get(tile.id) ?? { x: 0, y: 0, w: 6, h: 5 };
          const style = { '--x': cell.x + 1, '--y': cell.y + 1, '--w': cell.w, '--h': cell.h };
          return (
            <div key={tile.id} class="board-cell" style={style as any} data-testid="board-cell" data-tile={tile.id}>
              {/* The tile draws without its own grid place: this cell is the grid item. */}
              <DashboardTile tile={{ ...tile, layouts: {} }} project={project} filters={filters} readOnly />
            </div>
          );
        })}
      </div>
    </>
  );
}
