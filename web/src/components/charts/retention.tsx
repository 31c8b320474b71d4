// Retention: the cohort grid (an HTML table, each cell shaded by its share of the cohort) with a
// line of the mean retention per interval above it.
import { useMemo } from 'preact/hooks';
import { breakdownLabel, color, pct } from '../../lib/format';
import type { TableModel } from '../DataTable';
import { VizFrame } from '../VizFrame';
import { ChartCanvas } from './ChartCanvas';
import { cartesian } from './chartjs';
import type { ViewProps } from './trends';

interface Row {
  date: string;
  label: string;
  values: { count: number; label?: string }[];
  breakdown_value?: unknown;
}

const cohortDate = (row: Row) => (row.date ? row.date.slice(0, row.date.includes('T00:00:00') ? 10 : 16).replace('T', ' ') : row.label);

export function RetentionView({ result, compact, onActors }: ViewProps) {
  const rows = (Array.isArray(result) ? result : []) as Row[];
  const withBreakdown = rows.some((r) => r.breakdown_value !== undefined && r.breakdown_value !== null);
  const width = rows.reduce((w, r) => Math.max(w, r.values.length), 0);
  const headers = Array.from({ length: width }, (_, k) => rows.find((r) => r.values[k]?.label)?.values[k]?.label ?? `Period ${k}`);
  // The cohort index the actors query wants counts rows within one breakdown value.
  const cohortIndex = rows.map((row, i) => rows.slice(0, i).filter((r) => r.breakdown_value === row.breakdown_value).length);

  const open = (i: number) => {
    const row = rows[i];
    if (!row || !onActors) return;
    const params: Record<string, unknown> = { interval: cohortIndex[i] };
    if (withBreakdown) params.breakdown = row.breakdown_value;
    onActors({ title: `Cohort ${cohortDate(row)}${withBreakdown ? ` · ${breakdownLabel(row.breakdown_value)}` : ''}`, params });
  };

  // Mean retention per interval over the cohorts that have reached it (size > 0).
  const mean = headers.map((_, k) => {
    const shares = rows.filter((r) => r.values[0]?.count && k < r.values.length).map((r) => (r.values[k]!.count / r.values[0]!.count) * 100);
    return shares.length ? Math.round((shares.reduce((a, b) => a + b, 0) / shares.length) * 10) / 10 : 0;
  });
  const config = useMemo(() => cartesian({
    type: 'line', labels: headers, percent: true, compact,
    series: [{ label: 'Mean retention', data: mean, color: color(0), fill: true }],
  }), [result, compact]);

  if (rows.length === 0) return <p class="empty">No cohorts in this range.</p>;
  const grid: TableModel = {
    columns: ['Cohort', ...(withBreakdown ? ['Breakdown'] : []), 'Size', ...headers],
    rows: rows.map((row) => {
      const size = row.values[0]?.count ?? 0;
      return [
        cohortDate(row),
        ...(withBreakdown ? [breakdownLabel(row.breakdown_value)] : []),
        size,
        ...headers.map((_, k) => {
          const cell = row.values[k];
          if (!cell) return null;
          const share = size ? cell.count / size : 0;
          return {
            text: pct(share * 100),
            value: cell.count,
            style: { background: `rgba(29, 74, 255, ${(0.06 + share * 0.84).toFixed(3)})`, color: share > 0.45 ? '#fff' : '#111827' },
          };
        }),
      ];
    }),
    keys: rows.map((r) => `${r.date}|${withBreakdown ? String(r.breakdown_value) : ''}`),
  };
  const counts: TableModel = {
    columns: grid.columns,
    rows: rows.map((row, i) => [grid.rows[i]![0]!, ...(withBreakdown ? [breakdownLabel(row.breakdown_value)] : []), row.values[0]?.count ?? 0, ...headers.map((_, k) => row.values[k]?.count ?? null)]),
    keys: grid.keys,
  };
  const total = rows.reduce((sum, r) => sum + (r.values[0]?.count ?? 0), 0);

  return (
    <VizFrame
      chart={
        <>
          {!compact && <ChartCanvas config={config} height={200} label="Mean retention by period" />}
          <RetentionGrid model={grid} onRow={onActors ? open : undefined} />
        </>
      }
      legend={[
        { label: 'People in cohorts', value: total, color: color(0) },
        ...mean.slice(1, 2).map((m) => ({ label: `Mean ${headers[1] ?? ''} retention`, value: pct(m) })),
      ]}
      table={counts}
      caption="Retention counts per cohort and period"
      onRow={onActors ? open : undefined}
    />
  );
}

/** The shaded grid, always visible: it is the chart. */
function RetentionGrid({ model, onRow }: { model: TableModel; onRow?: (i: number) => void }) {
  return (
    <div class="table-scroll">
      <table class="data-table retention-grid" data-testid="retention-grid">
        <caption class="sr-only">Retention: share of each cohort that came back</caption>
        <thead><tr>{model.columns.map((c) => <th scope="col">{c}</th>)}</tr></thead>
        <tbody>
          {model.rows.map((row, r) => (
            <tr data-key={model.keys?.[r]} class={onRow ? 'clickable' : undefined} onClick={onRow ? () => onRow(r) : undefined}>
              {row.map((cell, c) => {
                if (c === 0) return <th scope="row">{String(cell)}</th>;
                if (cell === null) return <td />;
                if (typeof cell === 'object') return <td class="num cell" data-value={String(cell.value)} style={cell.style} title={`${cell.value} people`}>{cell.text}</td>;
                return <td class={typeof cell === 'number' ? 'num' : undefined} data-value={typeof cell === 'number' ? String(cell) : undefined}>{String(cell)}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
