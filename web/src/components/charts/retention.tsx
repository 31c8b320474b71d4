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

/** A cell's start: the cohort's start plus k periods, on the cohort date's own wall clock and offset. */
function cellStart(date: string, period: string, k: number): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(Z|[+-]\d{2}:\d{2})?/.exec(date);
  if (!m) return NaN;
  const [y, mo, d, h, mi, sec] = m.slice(1, 7).map((v) => Number(v ?? 0)) as number[];
  const zone = m[7] && m[7] !== 'Z' ? m[7] : '+00:00';
  const offset = (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
  const step = { Hour: [0, 0, k, 0], Day: [0, k, 0, 0], Week: [0, 7 * k, 0, 0], Month: [k, 0, 0, 0] }[period] ?? [0, k, 0, 0];
  return Date.UTC(y!, mo! - 1 + step[0]!, d! + step[1]!, h! + step[2]!, mi!, sec!) - offset;
}

/**
 * PostHog's reading of a retention row (retentionLogic): a period that has not started yet is no
 * cell at all (left blank), and the one now under way is "in progress": shown, left out of means.
 */
function cellState(row: Row, period: string, k: number, now: number): 'done' | 'current' | 'future' {
  const start = cellStart(row.date, period, k);
  if (Number.isNaN(start)) return 'done';
  if (start > now) return 'future';
  return cellStart(row.date, period, k + 1) > now ? 'current' : 'done';
}

const cohortDate = (row: Row) => (row.date ? row.date.slice(0, row.date.includes('T00:00:00') ? 10 : 16).replace('T', ' ') : row.label);

export function RetentionView({ source, result, compact, onActors }: ViewProps) {
  const period: string = source.retentionFilter?.period ?? 'Day';
  const weighted = source.retentionFilter?.meanRetentionCalculation === 'weighted';
  const now = Date.now();
  // Periods not reached yet are dropped from each row, as PostHog's app drops them.
  const rows = ((Array.isArray(result) ? result : []) as Row[]).map((row) => {
    const states = row.values.map((_, k) => cellState(row, period, k, now));
    return { ...row, values: row.values.filter((_, k) => states[k] !== 'future'), states };
  });
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

  // PostHog's mean per period: over the cohorts of size > 0 whose period is complete (not the one
  // in progress, not one to come); simple by default, weighted by cohort size when asked. No
  // complete period, no mean (and no point on the line).
  const mean = headers.map((_, k): number | null => {
    const valid = rows.filter((r) => r.values[0]?.count && k < r.values.length && r.states[k] === 'done');
    if (valid.length === 0) return null;
    const share = (r: Row) => (r.values[k]!.count / r.values[0]!.count) * 100;
    const weight = (r: Row) => (weighted ? r.values[0]!.count : 1);
    const total = valid.reduce((sum, r) => sum + weight(r), 0);
    return Math.round((valid.reduce((sum, r) => sum + share(r) * weight(r), 0) / total) * 10) / 10;
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
          const current = row.states[k] === 'current';
          return {
            text: pct(share * 100),
            value: cell.count,
            current,
            style: current ? undefined : { background: `rgba(29, 74, 255, ${(0.06 + share * 0.84).toFixed(3)})`, color: share > 0.45 ? '#fff' : '#111827' },
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
          <RetentionGrid model={grid} mean={mean} withBreakdown={withBreakdown} onRow={onActors ? open : undefined} />
        </>
      }
      legend={[
        { label: 'People in cohorts', value: total, color: color(0) },
        ...mean.slice(1, 2).map((m) => ({ label: `Mean ${headers[1] ?? ''} retention`, value: m === null ? null : pct(m) })),
      ]}
      table={counts}
      caption="Retention counts per cohort and period"
      onRow={onActors ? open : undefined}
    />
  );
}

/** The shaded grid, always visible: it is the chart. */
function RetentionGrid({ model, mean, withBreakdown, onRow }: { model: TableModel; mean: (number | null)[]; withBreakdown: boolean; onRow?: (i: number) => void }) {
  return (
    <div class="table-scroll">
      <table class="data-table retention-grid" data-testid="retention-grid">
        <caption class="sr-only">Retention: share of each cohort that came back</caption>
        <thead>
          <tr>{model.columns.map((c) => <th scope="col">{c}</th>)}</tr>
          <tr class="mean-row" data-testid="retention-mean">
            <th scope="row">Mean</th>
            {withBreakdown && <td />}
            <td />
            {mean.map((m) => <td class="num cell" data-value={m === null ? undefined : String(m)}>{m === null ? '' : pct(m)}</td>)}
          </tr>
        </thead>
        <tbody>
          {model.rows.map((row, r) => (
            <tr data-key={model.keys?.[r]} class={onRow ? 'clickable' : undefined} onClick={onRow ? () => onRow(r) : undefined}>
              {row.map((cell, c) => {
                if (c === 0) return <th scope="row">{String(cell)}</th>;
                if (cell === null) return <td />;
                if (typeof cell === 'object') {
                  const current = (cell as { current?: boolean }).current;
                  return <td class={`num cell${current ? ' in-progress' : ''}`} data-value={String(cell.value)} style={cell.style} title={current ? `Period in progress · ${cell.value} people` : `${cell.value} people`}>{cell.text}</td>;
                }
                return <td class={typeof cell === 'number' ? 'num' : undefined} data-value={typeof cell === 'number' ? String(cell) : undefined}>{String(cell)}</td>;
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
