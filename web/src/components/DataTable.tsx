// The exact numbers behind a chart, as an HTML table: what a screen reader (and a browser test)
// reads. Number cells carry the raw value in data-value; rows may open the People panel.
import { num } from '../lib/format';

export type Cell = string | number | null | { text: string; value?: number | string | null; style?: Record<string, string> };

export interface TableModel {
  columns: string[];
  rows: Cell[][];
  /** An id per row for tests and keys (series label, step, status...). */
  keys?: string[];
  /** With onCellClick: the first column whose number cells each open their own people. */
  cellsFrom?: number;
}

function cellParts(cell: Cell): { text: string; value: string | null; numeric: boolean; style?: Record<string, string> } {
  if (cell === null) return { text: '–', value: null, numeric: false };
  if (typeof cell === 'number') return { text: num(cell), value: String(cell), numeric: true };
  if (typeof cell === 'string') return { text: cell, value: null, numeric: false };
  return { text: cell.text, value: cell.value === undefined || cell.value === null ? null : String(cell.value), numeric: typeof cell.value === 'number', style: cell.style };
}

export function DataTable({ model, caption, onRowClick, onCellClick, testId = 'data-table' }: {
  model: TableModel;
  caption: string;
  onRowClick?: (rowIndex: number) => void;
  /** Number cells that open their own people (a trend's day); the cell is a button then. */
  onCellClick?: (rowIndex: number, columnIndex: number) => void;
  testId?: string;
}) {
  return (
    <div class="table-scroll">
      <table class="data-table" data-testid={testId}>
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>{model.columns.map((c) => <th scope="col">{c}</th>)}</tr>
        </thead>
        <tbody>
          {model.rows.map((row, r) => (
            <tr
              key={model.keys?.[r] ?? r}
              data-key={model.keys?.[r]}
              class={onRowClick ? 'clickable' : undefined}
              onClick={onRowClick ? () => onRowClick(r) : undefined}
              tabIndex={onRowClick ? 0 : undefined}
              onKeyDown={onRowClick ? (e) => { if (e.key === 'Enter') onRowClick(r); } : undefined}
            >
              {row.map((cell, c) => {
                const part = cellParts(cell);
                return c === 0
                  ? <th scope="row" data-value={part.value ?? undefined}>{part.text}</th>
                  : (
                    <td class={part.numeric ? 'num' : undefined} data-value={part.value ?? undefined} style={part.style}>
                      {onCellClick && part.numeric && c >= (model.cellsFrom ?? 1)
                        ? <button type="button" class="cell-button" aria-label={`People: ${cellParts(row[0] ?? null).text}, ${model.columns[c]} (${part.text})`} onClick={() => onCellClick(r, c)}>{part.text}</button>
                        : part.text}
                    </td>
                  );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
