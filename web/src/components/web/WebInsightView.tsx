// A saved web analytics insight drawn from its stored result: a WebOverviewQuery as the page's
// overview cards, a WebStatsTableQuery as the page's table with fill bars (its columns are the
// ones the query answers: visitors and views, bounce rate, or a goal's conversions).
import { metricsOf, readStatsRows, TABLE_TABS, type OverviewItem } from '../../lib/webAnalytics';
import type { QueryNode } from '../../types';
import { OverviewTiles } from './OverviewTiles';
import { StatsTableView } from './StatsTable';
import './web.css';

interface Props { source: QueryNode; result: unknown; compact?: boolean }

const compared = (source: QueryNode) => source.compareFilter?.compare === true;

export function WebOverviewView({ source, result, compact }: Props) {
  const items = Array.isArray(result) ? (result as OverviewItem[]) : [];
  return (
    <div class={`web-insight${compact ? ' compact' : ''}`}>
      <OverviewTiles items={items} compare={compared(source)} />
    </div>
  );
}

/** The page's tab for a breakdown: its value column's heading and title. */
function tabOf(breakdownBy: string) {
  for (const tabs of Object.values(TABLE_TABS)) {
    const found = tabs.find((t) => t.breakdownBy === breakdownBy && t.id !== 'MAP');
    if (found) return found;
  }
  return { column: breakdownBy, title: breakdownBy };
}

export function WebStatsView({ source, result, compact }: Props) {
  const rows = readStatsRows(Array.isArray(result) ? (result as unknown[][]) : [], null, source);
  const tab = tabOf(String(source.breakdownBy));
  return (
    <div class={`web-insight${compact ? ' compact' : ''}`}>
      <StatsTableView rows={rows} metrics={metricsOf(source)} breakdownBy={String(source.breakdownBy)} column={tab.column} title={tab.title} compare={compared(source)} />
    </div>
  );
}
