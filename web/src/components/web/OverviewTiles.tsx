// The overview row: one WebOverviewQuery, a card per item with its value, the previous period's
// and a ±% badge (green when the change is good, red when bad: isIncreaseBad flips it).
import { duration, num } from '../../lib/format';
import { OVERVIEW_LABELS, type OverviewItem } from '../../lib/webAnalytics';
import { changeTone } from './StatsTable';

export function formatItem(kind: string, value: number | null): string {
  if (value === null || value === undefined) return '–';
  if (kind === 'duration_s') return duration(value);
  if (kind === 'percentage') return `${(Math.round(value * 10) / 10).toFixed(1)}%`;
  return num(value);
}

export function OverviewTiles({ items, compare }: { items: OverviewItem[]; compare: boolean }) {
  return (
    <div class="web-overview" data-testid="web-overview">
      {items.map((item) => {
        const change = item.changeFromPreviousPct;
        return (
          <div class="card web-stat" data-key={item.key} data-value={item.value === null ? undefined : String(item.value)}>
            <div class="web-stat-label">{OVERVIEW_LABELS[item.key] ?? item.key}</div>
            <div class="web-stat-value">{formatItem(item.kind, item.value)}</div>
            {compare && (
              <div class="web-stat-previous muted" data-previous={item.previous === null ? undefined : String(item.previous)}>
                {change !== null && change !== undefined && (
                  <span class={`web-badge ${changeTone(change, !!item.isIncreaseBad)}`} data-change={String(change)}>
                    {change > 0 ? '+' : ''}{change}%
                  </span>
                )}{' '}
                previously {formatItem(item.kind, item.previous)}
              </div>
            )}
          </div>
        );
      })}
    </div>
  );
}
