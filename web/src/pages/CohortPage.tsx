// One cohort: its criteria, its size (counted in the background: polled while calculating) and
// the people in it now; edit (the criteria editor) and delete (PostHog's soft delete) after a
// confirmation. /cohorts/new opens the editor for a new cohort.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { num } from '../lib/format';
import { cohortPersons, deleteCohort, describeCriteria, getCohort, type Cohort } from '../lib/cohorts';
import { useLoad } from '../lib/useApi';
import { navigate } from '../router';
import { PeopleTable } from '../components/PeopleTable';
import { LazyCohortEditor } from '../components/cohorts/LazyCohortEditor';

const POLL_MS = 1000;

export function CohortPage({ project, id }: { project: string; id: string }) {
  if (id === 'new') {
    return (
      <section>
        <div class="page-head"><h1>New cohort</h1></div>
        <LazyCohortEditor project={project} cohort={null}
          onSaved={(saved) => navigate(`/project/${project}/cohorts/${saved.id}`)}
          onCancel={() => navigate(`/project/${project}/cohorts`)} />
      </section>
    );
  }
  return <SavedCohort project={project} id={id} />;
}

function SavedCohort({ project, id }: { project: string; id: string }) {
  const cohort = useLoad((signal) => getCohort(project, id, signal), [project, id]);
  // Moves when the members may have changed: after a save, and when a calculation ends.
  const [generation, setGeneration] = useState(0);
  const persons = useLoad((signal) => cohortPersons(project, id, signal), [project, id, generation]);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const calculating = cohort.data?.is_calculating ?? false;
  useEffect(() => {
    if (!calculating) return;
    const timer = setTimeout(cohort.reload, POLL_MS);
    return () => clearTimeout(timer);
  }, [calculating, cohort.data]);
  // A calculation ended: the people list catches up.
  const wasCalculating = useRef(false);
  useEffect(() => {
    if (wasCalculating.current && !calculating) setGeneration((g) => g + 1);
    wasCalculating.current = calculating;
  }, [calculating]);

  const saved = (next: Cohort) => {
    setEditing(false);
    cohort.set(next);
    setGeneration((g) => g + 1);
  };
  const remove = async () => {
    try {
      await deleteCohort(project, Number(id));
      navigate(`/project/${project}/cohorts`);
    } catch (err) {
      setDeleteError(err instanceof ApiError ? err.message : String(err));
    }
  };

  const c = cohort.data;
  const rows = persons.data?.results ?? [];
  return (
    <section>
      <div class="page-head">
        <h1>{c ? c.name || `Cohort ${c.id}` : 'Cohort'}</h1>
        {c && !editing && (
          <span class="controls">
            <button type="button" onClick={() => setEditing(true)}>Edit</button>
            {!confirming && <button type="button" class="danger" onClick={() => setConfirming(true)}>Delete</button>}
            {confirming && (
              <span class="confirm" role="alertdialog" aria-label="Delete cohort">
                Delete “{c.name || `Cohort ${c.id}`}”? Insights and flags that use it stop matching anyone.{' '}
                <button type="button" class="danger" onClick={remove}>Yes, delete</button>
                <button type="button" class="link-button" onClick={() => setConfirming(false)}>Keep it</button>
              </span>
            )}
          </span>
        )}
      </div>
      {cohort.error && <p class="error" role="alert">{cohort.error}</p>}
      {deleteError && <p class="error" role="alert">{deleteError}</p>}
      {c && editing && <LazyCohortEditor project={project} cohort={c} onSaved={saved} onCancel={() => setEditing(false)} />}
      {c && !editing && (
        <dl class="facts" data-testid="cohort-facts">
          <dt>Type</dt><dd data-testid="cohort-type">{c.is_static ? <span class="tag">Static</span> : 'Dynamic'}</dd>
          {c.description && (<><dt>Description</dt><dd>{c.description}</dd></>)}
          <dt>Criteria</dt><dd data-testid="cohort-criteria">{describeCriteria(c)}</dd>
          <dt>People</dt>
          <dd data-testid="cohort-count" data-state={calculating ? 'calculating' : 'ready'} data-value={calculating || c.count === null ? undefined : String(c.count)}>
            {calculating ? 'calculating…' : c.count === null ? '—' : num(c.count)}
          </dd>
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
