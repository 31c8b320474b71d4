// Feature flags: the project's flags with their status and rollout, searched by key or
// description, narrowed to active or inactive ones; a button to create one.
import { useState } from 'preact/hooks';
import { SearchBox, useDebouncedSearch } from '../components/SearchBox';
import { StatusBadge } from '../components/flags/FlagSettings';
import { ago, when } from '../lib/format';
import { listFlags, loadGroupTypes, rolloutSummary } from '../lib/flags';
import { useLoad } from '../lib/useApi';
import { onLinkClick } from '../router';

export function FeatureFlagsPage({ project }: { project: string }) {
  const { typed, setTyped, search } = useDebouncedSearch();
  const [active, setActive] = useState<'' | 'true' | 'false'>('');
  const list = useLoad((signal) => listFlags(project, search, active, signal), [project, search, active]);
  const groupTypes = useLoad((signal) => loadGroupTypes(project, signal), [project]);
  const flags = list.data?.results ?? [];
  return (
    <section>
      <div class="page-head">
        <h1>Feature flags</h1>
        <a class="button primary" href={`/project/${project}/feature_flags/new`} onClick={onLinkClick}>New feature flag</a>
      </div>
      <div class="inline flag-filters">
        <SearchBox label="Search flags" placeholder="Search by key or description" value={typed} onInput={setTyped} />
        <label class="inline">
          Status
          <select aria-label="Status" value={active} onChange={(e) => setActive((e.currentTarget as HTMLSelectElement).value as '' | 'true' | 'false')}>
            <option value="">Any</option>
            <option value="true">Active</option>
            <option value="false">Inactive</option>
          </select>
        </label>
      </div>
      {list.error && <p class="error" role="alert">{list.error}</p>}
      <table class="list-table" data-testid="flags-table" aria-busy={list.loading} data-state={list.loading ? 'loading' : 'ready'}>
        <thead><tr><th scope="col">Key</th><th scope="col">Description</th><th scope="col">Status</th><th scope="col">Release</th><th scope="col">Created by</th><th scope="col">Created</th></tr></thead>
        <tbody>
          {flags.map((f) => (
            <tr data-key={f.key} data-id={f.id} class={f.active ? undefined : 'inactive'}>
              <td><a class="mono" href={`/project/${project}/feature_flags/${f.id}`} onClick={onLinkClick}>{f.key}</a></td>
              <td class="muted ellipsis">{f.name}</td>
              <td><StatusBadge flag={f} /></td>
              <td data-testid="flag-rollout">{rolloutSummary(f.filters ?? {}, groupTypes.data ?? [])}</td>
              <td>{f.created_by ? f.created_by.first_name || f.created_by.email : '–'}</td>
              <td title={when(f.created_at)}>{ago(f.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!list.loading && flags.length === 0 && !list.error && <p class="empty">{search || active ? 'No flags match.' : 'No feature flags yet.'}</p>}
    </section>
  );
}
