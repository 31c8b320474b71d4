// Picks the chart of a query kind and, where the user may look at people, the People panel.
import { useState } from 'preact/hooks';
import type { ActorTarget, QueryNode } from '../types';
import { FunnelsView } from './charts/funnels';
import { LifecycleView } from './charts/lifecycle';
import { PathsView } from './charts/paths';
import { RetentionView } from './charts/retention';
import { StickinessView } from './charts/stickiness';
import { TrendsView } from './charts/trends';
import { PeoplePanel } from './PeoplePanel';
import { SqlView } from './sql/SqlView';
import { WebOverviewView, WebStatsView } from './web/WebInsightView';

const VIEWS: Record<string, typeof TrendsView> = {
  TrendsQuery: TrendsView,
  FunnelsQuery: FunnelsView,
  RetentionQuery: RetentionView,
  PathsQuery: PathsView,
  StickinessQuery: StickinessView,
  LifecycleQuery: LifecycleView,
  WebOverviewQuery: WebOverviewView,
  WebStatsTableQuery: WebStatsView,
  // Its result is the whole HogQL answer (columns, types, rows): lib/sql.ts viewResultOf.
  DataVisualizationNode: SqlView,
};

export function InsightView({ source, result, compact, projectId }: {
  source: QueryNode;
  result: unknown;
  compact?: boolean;
  /** Without a project (the shared page) there is no People panel. */
  projectId?: string;
}) {
  const [target, setTarget] = useState<ActorTarget | null>(null);
  const View = VIEWS[source.kind];
  if (!View) return <p class="empty">Hoglet's app does not chart {String(source.kind)} insights yet.</p>;
  if (result === null || result === undefined) return <p class="empty">Not calculated yet.</p>;
  // A legacy insight's source holds no query to hand to the actors query.
  const canOpen = projectId !== undefined && !source.legacy;
  return (
    <div class={`insight-view kind-${source.kind}`} data-kind={source.kind}>
      <View source={source} result={result} compact={compact} onActors={canOpen ? setTarget : undefined} />
      {target && canOpen && <PeoplePanel projectId={projectId!} source={source} target={target} onClose={() => setTarget(null)} />}
    </div>
  );
}
