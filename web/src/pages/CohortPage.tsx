// One cohort: its criteria, its size (counted in the background: polled while calculating) and
// the people in it now.
import { useEffect } from 'preact/hooks';
import { num } from '../lib/format';
import { cohortPersons, describeCriteria, getCohort } from '../lib/cohorts';
import { useLoad } from '../lib/useApi';
import { PeopleTable } from '../components/PeopleTable';

const POLL_MS = 1000;

export function CohortPage({ project, id }: { project: string; id: string }) {
  const cohort = useLoad((signal) => getCohort(project, id, signal), [project, id]);
  const persons = useLoad((signal) => cohortPersons(project, id, signal), [project, id]);
  const calculating = cohort.data?.is_calculating ?? false;
  useEffect(() => {
    if (!calculating) return;
    const timer = setTimeout(cohort.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [calculating, cohort.data]);
  const c = cohort.data;
  const rows = persons.data?.results ?? [];
  return (
    <section>
      <div class="page-head"><h1>{c ? c.name || `Cohort ${c.id}` : 'Cohort'}</h1></div>
      {cohort.error && <p class="error" role="alert">{cohort.error}</p>}
      {c && (
        <dl class="facts" data-testid="cohort-facts">
          <dt>Criteria</dt><dd data-testid="cohort-criteria">{describeCriteria(c)}</dd>
          <dt>People</dt>
          <dd data-testid="cohort-count" data-state={calculating ? 'calculating' : 'ready'}>{calculating ? 'calculating…' : c.count === null ? '—' : num(c.count)}</dd>
          {c.last_error_message && (<><dt>Last error</dt><dd class="error">{c.last_error_message}</dd></>)}
        </dl>
      )}
      {persons.error && <p class="error" role="alert">{persons.error}</p>}
      <PeopleTable project={project} rows={rows} loading={persons.loading} testId="cohort-persons" />
      {!persons.loading && rows.length === 0 && !persons.error && <p class="empty">No one is in this cohort now.</p>}
      {persons.data?.next && <p class="muted">The first 100 people are shown.</p>}
    </section>
  );
}
