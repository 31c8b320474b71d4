// Series names with their totals next to the chart (Chart.js's canvas legend is off).
import { num } from '../lib/format';

export interface LegendItem {
  label: string;
  value: number | string | null;
  color?: string;
  /** Shown after the value, e.g. a conversion rate. */
  note?: string;
  key?: string;
  /** The whole text when the label is a shortened one (a tooltip). */
  title?: string;
}

export function Legend({ items, onPick }: { items: LegendItem[]; onPick?: (index: number) => void }) {
  if (items.length === 0) return null;
  return (
    <ul class="legend" data-testid="legend" aria-label="Legend">
      {items.map((item, i) => (
        <li data-key={item.key ?? item.label} data-value={typeof item.value === 'number' ? String(item.value) : undefined}>
          <button type="button" class="legend-item" disabled={!onPick} onClick={onPick ? () => onPick(i) : undefined}>
            {item.color && <span class="swatch" style={{ background: item.color }} aria-hidden="true" />}
            <span class="legend-label" title={item.title ?? item.label}>{item.label}</span>
            <span class="legend-value">{typeof item.value === 'number' ? num(item.value) : item.value ?? '–'}</span>
            {item.note && <span class="legend-note">{item.note}</span>}
          </button>
        </li>
      ))}
    </ul>
  );
}
