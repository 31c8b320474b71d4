// An insight's result as the CSV PostHog's exporter writes for it (posthog/tasks/exports/
// csv_exporter.py, _convert_response_to_csv_data): one row per series with a column per date for
// trends (or "Total Sum" for a total), one row per step for funnels, one per cohort for retention,
// the columns of a SQL/table answer as they are; nested values flattened to "key.sub" columns
// (grouped by their first part), as its CSV renderer does.

type Row = Record<string, unknown>;

const OTHER = '$$_posthog_breakdown_other_$$';
const NULL = '$$_posthog_breakdown_null_$$';
const isObject = (v: unknown): v is Record<string, any> => typeof v === 'object' && v !== null && !Array.isArray(v);

function trendsRows(results: Row[], breakdownFilter: Record<string, any> | null): Row[] {
  const labelsFrom = results.find((r) => r.compare_label === 'current') ?? null;
  const comparing = !!results[0]?.compare_label;
  return results.map((item, index) => {
    const action = isObject(item.action) ? item.action : null;
    const values = 'breakdown_value' in item ? (Array.isArray(item.breakdown_value) ? item.breakdown_value : [item.breakdown_value]) : [];
    let breakdowns: { property?: unknown }[] = 'breakdown_value' in item && breakdownFilter ? (breakdownFilter.breakdowns ?? []) : [];
    if ('breakdown_value' in item && breakdowns.length === 0 && breakdownFilter && 'breakdown' in breakdownFilter) breakdowns = [{ property: breakdownFilter.breakdown }];
    let series = breakdowns.length > 0 && action?.name ? String(action.name) : String(item.label ?? `Series #${index + 1}`);
    if (item.compare_label) series = `${series} - ${item.compare_label}`;
    const line: Row = { series };
    if (action?.custom_name) line['custom name'] = action.custom_name;
    values.forEach((value, i) => {
      const property = breakdowns[i]?.property;
      if (!property) return;
      const name = Array.isArray(property) ? property.map(String).join(', ') : String(property);
      const text = value === null || value === undefined ? '' : String(value);
      line[name] = text === OTHER ? 'Other' : text === NULL ? 'None' : text;
    });
    if (item.aggregated_value !== null && item.aggregated_value !== undefined) line['Total Sum'] = item.aggregated_value;
    else if (Array.isArray(item.data)) {
      const labels: unknown[] = ((comparing ? labelsFrom : item)?.labels as unknown[] | undefined) ?? [];
      item.data.forEach((value: unknown, i: number) => { if (i < labels.length) line[String(labels[i])] = value; });
    }
    return line;
  });
}

const funnelRow = (step: Row): Row => ({
  name: step.custom_name || (step.action_id ?? ''),
  breakdown_value: Array.isArray(step.breakdown_value) ? step.breakdown_value.join('::') : (step.breakdown_value ?? ''),
  action_id: step.action_id ?? '',
  count: step.count ?? '',
  'median_conversion_time (seconds)': step.median_conversion_time ?? '',
  'average_conversion_time (seconds)': step.average_conversion_time ?? '',
});

function retentionRows(results: Row[]): Row[] {
  return results.map((item) => {
    const values = (item.values as { count: unknown; label: string }[] | undefined) ?? [];
    const line: Row = { cohort: item.date ? item.date : item.label, 'cohort size': values[0]?.count ?? 0 };
    values.forEach((v, i) => { line[item.date ? v.label : `Period ${i}`] = v.count; });
    return line;
  });
}

/** The rows PostHog's exporter yields for this answer (results, plus columns for a table). */
export function exportRows(answer: { results: unknown; columns?: unknown }, breakdownFilter: Record<string, any> | null = null): Row[] {
  const { results } = answer;
  const columns = Array.isArray(answer.columns) ? answer.columns.map(String) : null;
  if (Array.isArray(results) && Array.isArray(results[0])) {
    // A table: a SQL query's rows, or a funnel broken down (a list of step lists).
    if (columns) return (results as unknown[][]).map((row) => Object.fromEntries(row.map((v, i) => [columns[i] ?? `column_${i}`, v])));
    return (results as Row[][]).flatMap((steps) => steps.map(funnelRow));
  }
  if (isObject(results) && Array.isArray(results.bins)) return results.bins.filter((b: unknown) => Array.isArray(b) && b.length >= 2).map((b: unknown[]) => ({ bin: b[0], value: b[1] }));
  if (!Array.isArray(results) || results.length === 0) return [];
  const first = results[0];
  if (!isObject(first)) return [];
  if (first.action_id) return (results as Row[]).map(funnelRow);
  if (first.values && first.label) return retentionRows(results as Row[]);
  if (Array.isArray(first.data) || (first.data == null && 'aggregated_value' in first)) return trendsRows(results as Row[], breakdownFilter);
  return results as Row[];
}

/** "a.b" / "a.0" keys for nested values, as PostHog's CSV renderer flattens them. */
function flatten(value: unknown, prefix: string, out: Row): void {
  if (isObject(value) && Object.keys(value).length > 0) for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  else if (Array.isArray(value) && value.length > 0 && prefix) value.forEach((v, i) => flatten(v, `${prefix}.${i}`, out));
  else out[prefix] = value;
}

const cell = (v: unknown): string => {
  const text = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

/** The CSV text: a header of every key (grouped by first part, in order of appearance), then the rows. */
export function toCsv(rows: Row[]): string {
  if (rows.length === 0) return 'error\r\nNo data available or unable to format for export.\r\n';
  const flat = rows.map((row) => { const out: Row = {}; flatten(row, '', out); return out; });
  const groups = new Map<string, string[]>();
  for (const row of flat) {
    for (const key of Object.keys(row)) {
      const group = groups.get(key.split('.')[0]!) ?? [];
      if (!group.includes(key)) group.push(key);
      groups.set(key.split('.')[0]!, group);
    }
  }
  const keys = [...groups.values()].flat();
  return [keys.map(cell).join(','), ...flat.map((row) => keys.map((k) => cell(row[k])).join(','))].join('\r\n') + '\r\n';
}

/** Hands the browser a file to save. */
export function download(name: string, href: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
}

/** A file name from an insight's name. */
export const fileNameOf = (name: string, ext: string) => `${name.replace(/[\\/:*?"<>|]+/g, ' ').trim() || 'insight'}.${ext}`;
