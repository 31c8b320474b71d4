// A saved SQL insight (DataVisualizationNode) on its page, a dashboard tile or a shared page: the
// chart its display names, and the table under it (alone for a table display).
import { vizOf, type SqlResult } from '../../lib/sql';
import type { QueryNode } from '../../types';
import { SqlChart } from './SqlChart';
import { SqlTable } from './SqlTable';

export function SqlView({ source, result, compact }: { source: QueryNode; result: unknown; compact?: boolean }) {
  const data = result as SqlResult | null;
  if (!data || !Array.isArray(data.results)) return <p class="empty">Not calculated yet.</p>;
  const viz = vizOf(source);
  return (
    <div class="sql-view">
      {viz.display !== 'ActionsTable' && <SqlChart result={data} viz={viz} compact={compact} />}
      {(viz.display === 'ActionsTable' || !compact) && <SqlTable result={data} pageSize={compact ? 10 : 100} />}
    </div>
  );
}
