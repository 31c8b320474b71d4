// People: the project's persons, newest first, searched by email, name, id or distinct id.
import { useState } from 'preact/hooks';
import { searchPersons, type PersonRow } from '../lib/persons';
import { useLoad } from '../lib/useApi';
import { SearchBox, useDebouncedSearch } from '../components/SearchBox';
import { PeopleTable } from '../components/PeopleTable';

const PAGE = 50;

export function PersonsPage({ project }: { project: string }) {
  const [offset, setOffset] = useState(0);
  const { typed, setTyped, search } = useDebouncedSearch(() => setOffset(0));
  const page = useLoad((signal) => searchPersons(project, search, PAGE, offset, signal), [project, search, offset]);
  const rows: PersonRow[] = page.data?.rows ?? [];
  const hasMore = page.data?.hasMore ?? false;
  const { loading, error } = page;

  return (
    <section>
      <div class="page-head"><h1>People</h1></div>
      <SearchBox label="Search people" placeholder="Email, name or distinct id" value={typed} onInput={setTyped} />
      {error && <p class="error" role="alert">{error}</p>}
      <PeopleTable project={project} rows={rows} loading={loading} testId="persons-table" extra={{ 'data-search': search }} />
      {!loading && rows.length === 0 && !error && <p class="empty">{search ? 'No one matches.' : 'No people yet.'}</p>}
      {(offset > 0 || hasMore) && (
        <div class="pager">
          <button type="button" disabled={offset === 0 || loading} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</button>
          <span class="muted">{offset + 1}–{offset + rows.length}</span>
          <button type="button" disabled={!hasMore || loading} onClick={() => setOffset(offset + PAGE)}>Next</button>
        </div>
      )}
    </section>
  );
}
