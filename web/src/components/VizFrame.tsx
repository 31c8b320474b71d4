// What every chart kind shows around its drawing: the legend, and a toggle for the data table.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { DataTable, type TableModel } from './DataTable';
import { Legend, type LegendItem } from './Legend';

export function VizFrame({ chart, legend, table, caption, onRow, onCell, onLegend, tableOpen = false, note }: {
  chart: ComponentChildren;
  legend: LegendItem[];
  table: TableModel;
  caption: string;
  onRow?: (index: number) => void;
  onCell?: (row: number, column: number) => void;
  onLegend?: (index: number) => void;
  tableOpen?: boolean;
  note?: ComponentChildren;
}) {
  const [open, setOpen] = useState(tableOpen);
  return (
    <div class="viz">
      {chart}
      {note && <p class="muted viz-note">{note}</p>}
      <Legend items={legend} onPick={onLegend} />
      <button type="button" class="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide data table' : 'Show data table'}
      </button>
      {open && <DataTable model={table} caption={caption} onRowClick={onRow} onCellClick={onCell} />}
    </div>
  );
}
