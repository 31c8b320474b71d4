// The flag's usage charts, as PostHog's generated usage dashboard draws them: `$feature_flag_called`
// for this key over the last 30 days by response (true, false, a variant), every call as a line
// per response, and the unique users per response as a table.
import { InsightView } from '../InsightView';
import { usageQuery } from '../../lib/flags';
import { runQuery } from '../../lib/run';
import { useLoad } from '../../lib/useApi';

export function FlagUsage({ project, flagKey }: { project: string; flagKey: string }) {
  return (
    <>
      <UsageChart project={project} flagKey={flagKey} math="total" testId="flag-usage" title="Usage: calls in the last 30 days by response" />
      <UsageChart project={project} flagKey={flagKey} math="dau" testId="flag-unique-users" title="Unique users calling it in the last 30 days, by response" />
    </>
  );
}

function UsageChart({ project, flagKey, math, testId, title }: { project: string; flagKey: string; math: 'total' | 'dau'; testId: string; title: string }) {
  const source = usageQuery(flagKey, math);
  const answer = useLoad((signal) => runQuery<{ results: unknown }>(project, source, signal), [project, flagKey]);
  return (
    <section class="card stack flag-usage" data-testid={testId} data-state={answer.loading ? 'loading' : 'ready'} aria-label={math === 'dau' ? 'Unique users' : 'Usage'}>
      <h2>{title}</h2>
      {answer.error && <p class="error" role="alert">{answer.error}</p>}
      {answer.data && <InsightView source={source} result={answer.data.results} projectId={project} />}
      {answer.data && Array.isArray(answer.data.results) && answer.data.results.length === 0 && (
        <p class="muted">No <code>$feature_flag_called</code> events for this flag yet: the SDKs send one the first time a flag is read.</p>
      )}
    </section>
  );
}
