// Groups: the project's group types as tabs, and the groups of the chosen type, newest first,
// searched by key or property value, 100 a page (PostHog's cursor pages).
import { useState } from 'preact/hooks';
import { SearchBox, useDebouncedSearch } from '../components/SearchBox';
import { when } from '../lib/format';
import { cursorIn, groupName, groupPath, groupsPage, groupTypes, pluralOf, singularOf } from '../lib/groups';
import { useLoad } from '../lib/useApi';
import { onLinkClick } from '../router';

export function GroupsPage({ project, index }: { project: string; index: number | null }) {
  const types = useLoad((signal) => groupTypes(project, signal), [project]);
  const list = types.data ?? [];
  const current = list.find((t) => t.group_type_index === index) ?? list[0] ?? null;
  return (
    <section>
      <div class="page-head"><h1>Groups</h1></div>
      {types.error && <p class="error" role="alert">{types.error}</p>}
      {types.loading && !types.data && <p class="muted">Loading…</p>}
      {types.data && list.length === 0 && (
        <p class="empty" data-testid="no-group-types">
          No group types yet. Send events with <code>$groups</code> (posthog.group('company', 'id') in posthog-js) and they appear here.
        </p>
      )}
      {list.length > 0 && (
        <nav class="tabs" aria-label="Group types" data-testid="group-types">
          {list.map((t) => (
            <a
              href={groupPath(project, t.group_type_index)}
              onClick={onLinkClick}
              aria-current={current?.group_type_index === t.group_type_index ? 'page' : undefined}
              data-key={t.group_type}
              data-index={t.group_type_index}
              title={`${singularOf(t)} (index ${t.group_type_index})`}
            >{pluralOf(t)}</a>
          ))}
        </nav>
      )}
      {current && <GroupList key={`${project}-${current.group_type_index}`} project={project} index={current.group_type_index} />}
    </section>
  );
}

function GroupList({ project, index }: { project: string; index: number }) {
  // The cursors of the pages before this one, so Previous goes back exactly.
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const { typed, setTyped, search } = useDebouncedSearch(() => setCursors([null]));
  const cursor = cursors[cursors.length - 1] ?? null;
  const page = useLoad((signal) => groupsPage(project, index, search, cursor, signal), [project, index, search, cursor]);
  const rows = page.data?.results ?? [];
  const next = cursorIn(page.data?.next ?? null);
  return (
    <>
      <SearchBox label="Search groups" placeholder="Key or property value" value={typed} onInput={setTyped} />
      {page.error && <p class="error" role="alert">{page.error}</p>}
      <table class="data-table" data-testid="groups-table" data-search={search} aria-busy={page.loading ? 'true' : 'false'}>
        <thead><tr><th>Name</th><th>Key</th><th>Created</th></tr></thead>
        <tbody>
          {rows.map((g) => (
            <tr data-key={g.group_key}>
              <td><a href={groupPath(project, index, g.group_key)} onClick={onLinkClick}>{groupName(g)}</a></td>
              <td><code>{g.group_key}</code></td>
              <td data-value={g.created_at}>{when(g.created_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!page.loading && rows.length === 0 && !page.error && <p class="empty">{search ? 'No group matches.' : 'No groups of this type yet.'}</p>}
      {(cursors.length > 1 || next) && (
        <div class="pager">
          <button type="button" disabled={cursors.length === 1 || page.loading} onClick={() => setCursors(cursors.slice(0, -1))}>Previous</button>
          <button type="button" disabled={!next || page.loading} onClick={() => next && setCursors([...cursors, next])}>Next</button>
        </div>
      )}
    </>
  );
}
