// Saved insights of a project: search, tag, favourites and "created by me" filters, favourite
// toggles, and when the user last viewed each one.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError, qs } from '../api';
import { ago } from '../lib/format';
import { insightName, kindName } from '../lib/query';
import { useApi } from '../lib/useApi';
import { onLinkClick } from '../router';
import { useDebouncedSearch } from '../components/SearchBox';
import { Onboarding } from '../components/Onboarding';
import { useMe } from '../session';
import type { Insight, Page } from '../types';

const LIMIT = 30;

export function InsightsList({ project }: { project: string }) {
  const me = useMe();
  const [tag, setTag] = useState('');
  const [favorited, setFavorited] = useState(false);
  const [mine, setMine] = useState(false);
  const [offset, setOffset] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const { typed, setTyped, search } = useDebouncedSearch(() => setOffset(0));

  const path = `/api/projects/${project}/insights/${qs({
    basic: true,
    limit: LIMIT,
    offset,
    order: '-last_modified_at',
    search,
    tags: tag ? JSON.stringify([tag]) : null,
    favorited: favorited ? 'true' : null,
    created_by: mine ? JSON.stringify([me.id]) : null,
  })}`;
  const list = useApi<Page<Insight>>(path);
  const recent = useApi<Insight[]>(`/api/projects/${project}/insights/my_last_viewed/`);
  // An empty project shows how to send its first event (PostHog's onboarding).
  const projectInfo = useApi<{ api_token: string; ingested_event: boolean }>(`/api/projects/${project}/`);
  const [knownTags, setKnownTags] = useState<string[]>([]);
  useEffect(() => {
    const seen = new Set(knownTags);
    for (const i of list.data?.results ?? []) for (const t of i.tags ?? []) seen.add(t);
    if (seen.size !== knownTags.length) setKnownTags([...seen].sort());
  }, [list.data]);
  const viewedAt = useMemo(() => new Map((recent.data ?? []).map((i) => [i.id, i.last_viewed_at ?? null])), [recent.data]);

  const toggleFavorite = async (insight: Insight) => {
    setProblem(null);
    try {
      const updated = await api<Insight>(`/api/projects/${project}/insights/${insight.id}/`, { method: 'PATCH', body: { favorited: !insight.favorited } });
      if (list.data) list.set({ ...list.data, results: list.data.results.map((i) => (i.id === insight.id ? { ...i, favorited: updated.favorited } : i)) });
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : String(e));
    }
  };

  const count = list.data?.count ?? 0;
  return (
    <section>
      <div class="page-head">
        <h1>Insights</h1>
        <a class="button primary" href={`/project/${project}/insights/new`} onClick={onLinkClick}>New insight</a>
      </div>
      {projectInfo.data && !projectInfo.data.ingested_event && <Onboarding project={project} token={projectInfo.data.api_token} />}
      {(recent.data?.length ?? 0) > 0 && (
        <nav class="recent" aria-label="Recently viewed">
          <span class="muted">Recently viewed:</span>
          {recent.data!.slice(0, 5).map((i) => <a href={`/project/${project}/insights/${i.short_id}`} onClick={onLinkClick}>{insightName(i)}</a>)}
        </nav>
      )}
      <div class="filters" role="search">
        <input type="search" name="search" placeholder="Search insights" aria-label="Search insights" value={typed} onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)} />
        <label>
          Tag
          <select name="tag" value={tag} onChange={(e) => { setTag((e.currentTarget as HTMLSelectElement).value); setOffset(0); }}>
            <option value="">Any</option>
            {knownTags.map((t) => <option value={t}>{t}</option>)}
          </select>
        </label>
        <label class="check"><input type="checkbox" name="favorited" checked={favorited} onChange={(e) => { setFavorited((e.currentTarget as HTMLInputElement).checked); setOffset(0); }} /> Only favourites</label>
        <label class="check"><input type="checkbox" name="mine" checked={mine} onChange={(e) => { setMine((e.currentTarget as HTMLInputElement).checked); setOffset(0); }} /> Created by me</label>
      </div>
      {(list.error || problem) && <p class="error" role="alert">{list.error ?? problem}</p>}
      <table class="list-table" data-testid="insights-table" aria-busy={list.loading}>
        <thead>
          <tr><th scope="col"><span class="sr-only">Favourite</span></th><th scope="col">Name</th><th scope="col">Kind</th><th scope="col">Tags</th><th scope="col">Created by</th><th scope="col">Last modified</th><th scope="col">Last viewed</th></tr>
        </thead>
        <tbody>
          {(list.data?.results ?? []).map((insight) => (
            <tr data-short-id={insight.short_id}>
              <td>
                <button type="button" class="star" aria-pressed={insight.favorited} aria-label={insight.favorited ? 'Remove from favourites' : 'Add to favourites'} onClick={() => toggleFavorite(insight)}>
                  {insight.favorited ? '★' : '☆'}
                </button>
              </td>
              <td><a href={`/project/${project}/insights/${insight.short_id}`} onClick={onLinkClick}>{insightName(insight)}</a></td>
              <td>{kindName(insight)}</td>
              <td>{(insight.tags ?? []).map((t) => <button type="button" class="tag" onClick={() => { setTag(t); setOffset(0); }}>{t}</button>)}</td>
              <td>{insight.created_by?.first_name || insight.created_by?.email || '–'}</td>
              <td title={insight.last_modified_at}>{ago(insight.last_modified_at)}</td>
              <td title={viewedAt.get(insight.id) ?? insight.last_viewed_at ?? undefined}>{ago(viewedAt.get(insight.id) ?? insight.last_viewed_at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!list.loading && count === 0 && (
        <p class="empty">
          {search || tag || favorited || mine ? 'No insights match.' : <>No insights yet: <a href={`/project/${project}/insights/new`} onClick={onLinkClick}>make the first one</a>.</>}
        </p>
      )}
      {count > LIMIT && (
        <div class="pager">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - LIMIT))}>Previous</button>
          <span class="muted">{offset + 1}–{Math.min(offset + LIMIT, count)} of {count}</span>
          <button type="button" disabled={offset + LIMIT >= count} onClick={() => setOffset(offset + LIMIT)}>Next</button>
        </div>
      )}
    </section>
  );
}
