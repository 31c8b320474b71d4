// A shared insight, dashboard or session recording, read-only and without signing in: /shared/:token.json carries
// the insight with its result and query, the recording's metadata (its player reads the snapshots
// with the token), or the dashboard with its tiles' (asked again every few
// seconds while a tile is still calculating, as the token cannot follow a calculation).
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { InsightView } from '../components/InsightView';
import { insightName, viewSourceOf } from '../lib/query';
import { viewResultOf } from '../lib/sql';
import { SharedBoard } from '../components/dashboard/SharedBoard';
import { SharedRecording, type SharedRecordingData } from '../components/replay/SharedRecording';
import type { Dashboard, Insight } from '../types';

const POLL_MS = 2000;
const POLLS = 60;
const calculating = (dashboard: Dashboard) => (dashboard.tiles ?? []).some((tile) => tile.insight?.query_status?.id && !tile.insight.query_status.complete);

export function SharedPage({ token }: { token: string }) {
  const [insight, setInsight] = useState<Insight | null>(null);
  const [dashboard, setDashboard] = useState<Dashboard | null>(null);
  const [recording, setRecording] = useState<SharedRecordingData | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = (polls: number) =>
      api<{ type: string; insight?: Insight; dashboard?: Dashboard; recording?: SharedRecordingData }>(`/shared/${encodeURIComponent(token)}.json`, { redirectOn401: false })
        .then((answer) => {
          if (stopped) return;
          if (answer.recording) setRecording(answer.recording);
          else if (answer.dashboard) {
            setDashboard(answer.dashboard);
            if (calculating(answer.dashboard) && polls > 0) timer = setTimeout(() => load(polls - 1), POLL_MS);
          } else setInsight(answer.insight ?? null);
        })
        .catch((e) => { if (!stopped) setError(e instanceof ApiError ? e.message : String(e)); });
    void load(POLLS);
    return () => { stopped = true; clearTimeout(timer); };
  }, [token]);
  const source = insight ? viewSourceOf(insight) : null;
  return (
    <main class="shared">
      {error && <p class="error" role="alert">{error}</p>}
      {!insight && !dashboard && !recording && !error && <p class="muted">Loading…</p>}
      {recording && (
        <>
          <SharedRecording token={token} recording={recording} />
          <p class="muted powered">Shared with Hoglet</p>
        </>
      )}
      {dashboard && (
        <>
          <SharedBoard dashboard={dashboard} />
          <p class="muted powered">Shared with Hoglet</p>
        </>
      )}
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
