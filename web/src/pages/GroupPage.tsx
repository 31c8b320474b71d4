// One group: its properties, its events (the activity table filtered by `$group_N`), and its
// members: the people (and groups of other types) that shared an event with it in 90 days.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { EventsTable } from '../components/EventsTable';
import { PropertiesTable } from '../components/PropertiesTable';
import { readEvents, type EventRow } from '../lib/events';
import { when } from '../lib/format';
import { findGroup, groupEventsQuery, groupName, groupPath, groupTypes, relatedActors, singularOf, type RelatedGroup, type RelatedPerson } from '../lib/groups';
import { runQuery } from '../lib/run';
import { useLoad } from '../lib/useApi';
import { onLinkClick } from '../router';

const PAGE = 50;

export function GroupPage({ project, index, groupKey }: { project: string; index: number; groupKey: string }) {
  const types = useLoad((signal) => groupTypes(project, signal), [project]);
  const group = useLoad((signal) => findGroup(project, index, groupKey, signal).catch((e) => {
    if (e instanceof ApiError && e.status === 404) return null;
    throw e;
  }), [project, index, groupKey]);
  const related = useLoad((signal) => relatedActors(project, index, groupKey, signal), [project, index, groupKey]);
  const [events, setEvents] = useState<EventRow[] | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const loadEvents = (offset: number) =>
    runQuery<{ columns: string[]; results: unknown[][]; hasMore: boolean }>(project, groupEventsQuery(index, groupKey, PAGE, offset), undefined, 'force_blocking')
      .then((answer) => { setEvents((before) => [...(offset ? before ?? [] : []), ...readEvents(answer)]); setHasMore(answer.hasMore); })
      .catch((e) => setError(e instanceof ApiError ? e.message : String(e)));
  useEffect(() => { setEvents(null); loadEvents(0); }, [project, index, groupKey]);

  const type = types.data?.find((t) => t.group_type_index === index);
  const people = (related.data ?? []).filter((a): a is RelatedPerson => a.type === 'person');
  const otherGroups = (related.data ?? []).filter((a): a is RelatedGroup => a.type === 'group');
  const shownError = error ?? group.error ?? related.error;
  return (
    <section>
      <p class="crumbs">
        <a href={`/project/${project}/groups`} onClick={onLinkClick}>Groups</a> › <a href={groupPath(project, index)} onClick={onLinkClick}>{type ? type.group_type : `Type ${index}`}</a> ›
      </p>
      {shownError && <p class="error" role="alert">{shownError}</p>}
      {group.loading && !group.data && <p class="muted">Loading…</p>}
      {group.data === null && !group.loading && <p class="empty">No {type ? singularOf(type) : 'group'} with the key <code>{groupKey}</code> has been identified ($groupidentify).</p>}
      <div class="page-head">
        <div>
          <h1 data-testid="group-name">{group.data ? groupName(group.data) : groupKey}</h1>
          {group.data && <p class="muted">{type ? singularOf(type) : 'Group'} · key <code data-testid="group-key">{group.data.group_key}</code> · first seen {when(group.data.created_at)}</p>}
        </div>
      </div>
      <div class="person-grid">
        <div class="card">
          <h2>Properties</h2>
          {group.data && <PropertiesTable properties={group.data.group_properties} testId="group-properties" />}
        </div>
        <div class="card">
          <h2>People</h2>
          {related.loading && !related.data ? <p class="muted">Loading…</p> : (
            <table class="data-table" data-testid="group-people">
              <thead><tr><th>Person</th><th>Distinct ids</th></tr></thead>
              <tbody>
                {people.map((p) => (
                  <tr data-key={p.id}>
                    <td><a href={`/project/${project}/person/${p.id}`} onClick={onLinkClick}>{p.name}</a></td>
                    <td>{p.distinct_ids.join(', ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {related.data && people.length === 0 && <p class="empty">No one sent an event with this group in the last 90 days.</p>}
          {otherGroups.length > 0 && (
            <p class="muted" data-testid="group-related-groups">
              Related groups: {otherGroups.map((g, i) => (
                <>{i > 0 && ', '}<a href={groupPath(project, g.group_type_index, g.group_key)} onClick={onLinkClick}>{g.group_key}</a></>
              ))}
            </p>
          )}
        </div>
      </div>
      <div class="card">
        <h2>Events</h2>
        {events === null ? <p class="muted">Loading…</p> : <EventsTable project={project} events={events} />}
        {events?.length === 0 && <p class="empty">No events with this group.</p>}
        {hasMore && <button type="button" onClick={() => loadEvents(events?.length ?? 0)}>Load more</button>}
      </div>
    </section>
  );
}
