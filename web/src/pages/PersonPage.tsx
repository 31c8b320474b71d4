// One person: who they are (distinct ids, first seen), their properties, their latest events and
// their session recordings.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { DeletePerson } from '../components/DeletePerson';
import { EventsTable } from '../components/EventsTable';
import { PropertiesTable } from '../components/PropertiesTable';
import { PersonRecordings } from '../components/replay/PersonRecordings';
import { eventsQuery, readEvents, type EventRow } from '../lib/events';
import { when } from '../lib/format';
import { getPerson, personName, type Person } from '../lib/persons';
import { runQuery } from '../lib/run';
import { onLinkClick } from '../router';

const PAGE = 50;

export function PersonPage({ project, id }: { project: string; id: string }) {
  const [person, setPerson] = useState<Person | null | undefined>(undefined);
  const [events, setEvents] = useState<EventRow[] | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setPerson(undefined);
    getPerson(project, id).then(setPerson).catch((e) => setError(e instanceof ApiError ? e.message : String(e)));
  }, [project, id]);

  const loadEvents = (offset: number) =>
    runQuery<{ columns: string[]; results: unknown[][]; hasMore: boolean }>(project, eventsQuery({ personId: id, after: 'all', limit: PAGE, offset }), undefined, 'force_blocking')
      .then((answer) => { setEvents((before) => [...(offset ? before ?? [] : []), ...readEvents(answer)]); setHasMore(answer.hasMore); })
      .catch((e) => setError(e instanceof ApiError ? e.message : String(e)));

  useEffect(() => { setEvents(null); loadEvents(0); }, [project, id]);

  return (
    <section>
      <p class="crumbs"><a href={`/project/${project}/persons`} onClick={onLinkClick}>People</a> ›</p>
      {error && <p class="error" role="alert">{error}</p>}
      {person === undefined && !error && <p class="muted">Loading…</p>}
      {person === null && <p class="empty">This person does not exist (or was deleted).</p>}
      {person && (
        <>
          <div class="page-head">
            <div>
              <h1 data-testid="person-name">{personName(person)}</h1>
              <p class="muted">
                {person.is_identified ? 'Identified' : 'Anonymous'} · first seen {when(person.created_at)} · distinct ids: <span data-testid="distinct-ids">{person.distinct_ids.join(', ')}</span>
              </p>
            </div>
            <DeletePerson project={project} id={person.id} name={personName(person)} />
          </div>
          <div class="person-grid">
            <div class="card">
              <h2>Properties</h2>
              <PropertiesTable properties={person.properties} testId="person-properties" />
            </div>
            <div class="card">
              <h2>Latest events</h2>
              {events === null ? <p class="muted">Loading…</p> : <EventsTable project={project} events={events} showPerson={false} />}
              {events?.length === 0 && <p class="empty">No events.</p>}
              {hasMore && <button type="button" onClick={() => loadEvents(events?.length ?? 0)}>Load more</button>}
            </div>
            <PersonRecordings project={project} personId={person.uuid ?? person.id} />
          </div>
        </>
      )}
    </section>
  );
}
