// "Save as insight" on a Web analytics tile: the tile's query saved as it is (PostHog's shape: a
// DataTableNode around a WebStatsTableQuery, a bare WebOverviewQuery, an InsightVizNode around a
// TrendsQuery), then its insight page, from where it goes on a dashboard like any other.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { navigate } from '../../router';
import type { Insight, QueryNode } from '../../types';

export function SaveAsInsight({ project, name, query }: { project: string; name: string; query: QueryNode }) {
  const [state, setState] = useState<'idle' | 'saving' | string>('idle');
  const save = async () => {
    setState('saving');
    try {
      const made = await api<Insight>(`/api/projects/${project}/insights/`, { method: 'POST', body: { name, query, saved: true } });
      navigate(`/project/${project}/insights/${made.short_id}`);
    } catch (e) {
      setState(e instanceof ApiError ? e.message : String(e));
    }
  };
  return (
    <>
      <button type="button" onClick={save} disabled={state === 'saving'}>Save as insight</button>
      {state !== 'idle' && state !== 'saving' && <p class="error" role="alert">{state}</p>}
    </>
  );
}
