// The project's dashboards, and "New dashboard" (which opens the one made).
import { useState } from 'preact/hooks';
import { qs } from '../api';
import { NewDashboard } from '../components/dashboard/NewDashboard';
import { useApi } from '../lib/useApi';
import { navigate, onLinkClick } from '../router';
import type { Dashboard, Page } from '../types';
import { SearchBox, useDebouncedSearch } from '../components/SearchBox';

export function DashboardsList({ project }: { project: string }) {
  const { typed, setTyped, search } = useDebouncedSearch();
  const list = useApi<Page<Dashboard>>(`/api/projects/${project}/dashboards/${qs({ limit: 200, search })}`);
  const rows = list.data?.results ?? [];
  const [creating, setCreating] = useState(false);
  return (
    <section>
      <div class="page-head">
        <h1>Dashboards</h1>
        <div class="head-actions">
          <button type="button" class="primary" aria-expanded={creating} onClick={() => setCreating(!creating)}>New dashboard</button>
        </div>
        {creating && <NewDashboard project={project} onClose={() => setCreating(false)} onDone={(d) => navigate(`/project/${project}/dashboard/${d.id}`)} />}
      </div>
      <SearchBox label="Search dashboards" placeholder="Search dashboards" value={typed} onInput={setTyped} />
      {list.error && <p class="error" role="alert">{list.error}</p>}
      <table class="list-table" data-testid="dashboards-table" aria-busy={list.loading}>
        <thead><tr><th scope="col">Name</th><th scope="col">Description</th><th scope="col">Created by</th></tr></thead>
        <tbody>
          {rows.map((d) => (
            <tr>
              <td>{d.pinned ? '📌 ' : ''}<a href={`/project/${project}/dashboard/${d.id}`} onClick={onLinkClick}>{d.name || 'Untitled'}</a></td>
              <td class="muted">{d.description || ''}</td>
              <td>{d.created_by?.first_name || d.created_by?.email || '–'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!list.loading && rows.length === 0 && <p class="empty">No dashboards yet.</p>}
    </section>
  );
}
