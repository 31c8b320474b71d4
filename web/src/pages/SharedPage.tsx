// A shared insight, read-only and without signing in: /shared/:token.json carries the insight
// with its result and query.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { InsightView } from '../components/InsightView';
import { insightName, viewSourceOf } from '../lib/query';
import { viewResultOf } from '../lib/sql';
import type { Insight } from '../types';

export function SharedPage({ token }: { token: string }) {
  const [insight, setInsight] = useState<Insight | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api<{ type: string; insight: Insight }>(`/shared/${encodeURIComponent(token)}.json`, { redirectOn401: false })
      .then((answer) => setInsight(answer.insight))
      .catch((e) => setError(e instanceof ApiError ? e.message : String(e)));
  }, [token]);
  const source = insight ? viewSourceOf(insight) : null;
  return (
    <main class="shared">
      {error && <p class="error" role="alert">{error}</p>}
      {!insight && !error && <p class="muted">Loading…</p>}
      {insight && (
        <>
          <h1 data-testid="insight-name">{insightName(insight)}</h1>
          {insight.description && <p class="muted">{insight.description}</p>}
          <div class="card">
            {source ? <InsightView source={source} result={viewResultOf(source, insight.result, insight)} /> : <p class="empty">This insight cannot be shown here.</p>}
          </div>
          <p class="muted powered">Shared with Hoglet</p>
        </>
      )}
    </main>
  );
}
