// Cohorts: the project's cohorts with their type and size; a new one opens the criteria editor.
import { ago, num, when } from '../lib/format';
import { describeCriteria, listCohorts } from '../lib/cohorts';
import { useLoad } from '../lib/useApi';
import { onLinkClick } from '../router';

export function CohortsPage({ project }: { project: string }) {
  const list = useLoad((signal) => listCohorts(project, signal), [project]);
  const cohorts = list.data?.results ?? [];
  return (
    <section>
      <div class="page-head">
        <h1>Cohorts</h1>
        <a class="button" href={`/project/${project}/cohorts/new`} onClick={onLinkClick}>New cohort</a>
      </div>
      {list.error && <p class="error" role="alert">{list.error}</p>}
      <table class="list-table" data-testid="cohorts-table" aria-busy={list.loading} data-state={list.loading ? 'loading' : 'ready'}>
        <thead><tr><th scope="col">Cohort</th><th scope="col">Type</th><th scope="col">Criteria</th><th scope="col">People</th><th scope="col">Created</th></tr></thead>
        <tbody>
          {cohorts.map((c) => (
            <tr data-id={c.id}>
              <td><a href={`/project/${project}/cohorts/${c.id}`} onClick={onLinkClick}>{c.name || `Cohort ${c.id}`}</a></td>
              <td>{c.is_static ? <span class="tag">Static</span> : 'Dynamic'}</td>
              <td class="muted">{describeCriteria(c)}</td>
              <td>{c.is_calculating ? <span class="muted">calculating…</span> : c.count === null ? '—' : num(c.count)}</td>
              <td title={when(c.created_at)}>{ago(c.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!list.loading && cohorts.length === 0 && !list.error && <p class="empty">No cohorts yet.</p>}
    </section>
  );
}
