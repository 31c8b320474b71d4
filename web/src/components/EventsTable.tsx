// Events newest first; a click on a row opens its properties under it. A row whose $session_id was
// recorded links to the recording at that event's moment.
import { useEffect, useState } from 'preact/hooks';
import { when } from '../lib/format';
import { whereOf, type EventRow } from '../lib/events';
import { recordedSessions, recordingHref } from '../lib/recording-links';
import { onLinkClick } from '../router';
import { PropertiesTable } from './PropertiesTable';

export function EventsTable({ project, events, showPerson = true }: { project: string; events: EventRow[]; showPerson?: boolean }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (uuid: string) => {
    const next = new Set(open);
    if (next.has(uuid)) next.delete(uuid);
    else next.add(uuid);
    setOpen(next);
  };
  const span = showPerson ? 4 : 3;
  const sessionOf = (e: EventRow) => (typeof e.properties.$session_id === 'string' ? e.properties.$session_id : '');
  const [recorded, setRecorded] = useState<Map<string, number>>(new Map());
  useEffect(() => {
    const ids = events.map(sessionOf).filter((id) => id !== '');
    if (ids.length === 0) return;
    const controller = new AbortController();
    const since = Math.min(...events.map((e) => Date.parse(e.timestamp)).filter((ms) => !Number.isNaN(ms)));
    // Links are a help: when the lookup fails the table stays as it is.
    recordedSessions(project, ids, since, controller.signal).then(setRecorded).catch(() => undefined);
    return () => controller.abort();
  }, [project, events]);
  return (
    <table class="list-table events-table" data-testid="events-table">
      <thead>
        <tr><th scope="col">Event</th>{showPerson && <th scope="col">Person</th>}<th scope="col">URL / Screen</th><th scope="col">Time</th></tr>
      </thead>
      <tbody>
        {events.map((e) => [
          <tr
            key={e.uuid}
            class="clickable"
            data-testid="event-row"
            data-uuid={e.uuid}
            data-event={e.event}
            aria-expanded={open.has(e.uuid)}
            tabIndex={0}
            onClick={() => toggle(e.uuid)}
            onKeyDown={(k) => { if (k.key === 'Enter') toggle(e.uuid); }}
          >
            <td>
              <span class="expander" aria-hidden="true">{open.has(e.uuid) ? '▾' : '▸'}</span> {e.event}
              {recorded.has(sessionOf(e)) && (
                <a
                  class="watch-recording"
                  data-testid="watch-recording"
                  title="Watch the recording of this session at this event"
                  href={recordingHref(project, sessionOf(e), Date.parse(e.timestamp) - recorded.get(sessionOf(e))!)}
                  onClick={(ev) => { ev.stopPropagation(); onLinkClick(ev); }}
                >▶ Recording</a>
              )}
            </td>
            {showPerson && (
              <td>
                {e.person?.id
                  ? <a href={`/project/${project}/person/${e.person.id}`} onClick={(ev) => { ev.stopPropagation(); onLinkClick(ev); }}>{e.person.display_name}</a>
                  : e.person?.display_name ?? e.distinct_id}
              </td>
            )}
            <td class="muted ellipsis">{whereOf(e)}</td>
            <td title={e.timestamp} data-value={e.timestamp}>{when(e.timestamp)}</td>
          </tr>,
          open.has(e.uuid) && (
            <tr key={`${e.uuid}-props`} class="expanded" data-testid="event-properties">
              <td colSpan={span}>
                <p class="muted">Distinct id {e.distinct_id} · {e.timestamp}</p>
                <PropertiesTable properties={e.properties} />
              </td>
            </tr>
          ),
        ])}
      </tbody>
    </table>
  );
}
