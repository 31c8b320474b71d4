// How to draw the answer: the display, and which columns go across (x) and up (y).
import { SQL_DISPLAYS, type SqlDisplay, type SqlViz } from '../../lib/sql';

export function SqlVizControls({ viz, columns, onChange }: { viz: SqlViz; columns: string[]; onChange: (viz: SqlViz) => void }) {
  const charted = viz.display !== 'ActionsTable';
  const pick = (e: Event) => (e.currentTarget as HTMLSelectElement).value;
  return (
    <div class="controls sql-viz-controls">
      <label>Visualization
        <select name="sql-display" value={viz.display} onChange={(e) => onChange({ ...viz, display: pick(e) as SqlDisplay })}>
          {SQL_DISPLAYS.map(([value, label]) => <option value={value}>{label}</option>)}
        </select>
      </label>
      {charted && viz.display !== 'BoldNumber' && (
        <label>X axis
          <select name="sql-x" value={viz.x ?? ''} onChange={(e) => onChange({ ...viz, x: pick(e) || null })}>
            <option value="">None</option>
            {columns.map((c) => <option value={c}>{c}</option>)}
          </select>
        </label>
      )}
      {charted && (
        <label>{viz.display === 'BoldNumber' ? 'Value' : 'Y axis'}
          <select name="sql-y" value={viz.y[0] ?? ''} onChange={(e) => onChange({ ...viz, y: pick(e) ? [pick(e)] : [] })}>
            <option value="">None</option>
            {columns.map((c) => <option value={c}>{c}</option>)}
          </select>
        </label>
      )}
    </div>
  );
}
