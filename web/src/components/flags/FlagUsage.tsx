// The flag's usage chart, as PostHog's generated usage dashboard draws it: `$feature_flag_called`
// for this key over the last 30 days, one line per response (true, false, a variant).
import { InsightView } from '../InsightView';
import { usageQuery } from '../../lib/flags';
import { runQuery } from '../../lib/run';
import { useLoad } from '../../lib/useApi';

export function FlagUsage({ project, flagKey }: { project: string; flagKey: string }) {
  const source = usageQuery(flagKey);
  const answer = useLoad((signal) => runQuery<{ results: unknown }>(project, source, signal), [project, flagKey]);
  return (
    <section class="card stack flag-usage" data-testid="flag-usage" data-state={answer.loading ? 'loading' : 'ready'} aria-label="Usage">
      <h2>Usage: calls in the last 30 days by response</h2>
      {answer.error && <p class="error" role="alert">{answer.error}</p>}
      {answer.data && <InsightView source={source} result={answer.data.results} projectId={project} />}
      {answer.data && Array.isArray(answer.data.results) && answer.data.results.length === 0 && (
        <p class="muted">No <code>$feature_flag_called</code> events for this flag yet: the SDKs send one the first time a flag is read.</p>
      )}
    </section>
  );
}
