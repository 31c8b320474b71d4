// Activity: the project's newest events through an EventsQuery, filtered by event and
// properties, with "Load more" (offset) and an optional refresh every 5 seconds.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { Combobox } from '../components/Combobox';
import { EventsTable } from '../components/EventsTable';
import { PropertyFilters } from '../components/PropertyFilters';
import { seriesOptions } from '../lib/definitions';
import { eventsQuery, readEvents, type EventRow } from '../lib/events';
import { complete, type PropertyFilter } from '../lib/filters';
import { runQuery } from '../lib/run';

const PAGE = 100;
const RANGES: [string, string][] = [['-1h', 'Last hour'], ['-24h', 'Last 24 hours'], ['-7d', 'Last 7 days'], ['-30d', 'Last 30 days'], ['all', 'All time']];

export function EventsPage({ project }: { project: string }) {
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const [filters, setFilters] = useState<PropertyFilter[]>([]);
  const [after, setAfter] = useState('-24h');
  const [rows, setRows] = useState<EventRow[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [auto, setAuto] = useState(false);
  const latest = useRef(0);
  const loaded = useRef(0);

  const ready = complete(filters);
  const event = picked?.value.startsWith('event:') ? picked.value.slice(6) : null;
  const actionId = picked?.value.startsWith('action:') ? Number(picked.value.slice(7)) : null;
  const key = JSON.stringify([picked?.value, ready, after]);

  /** From `offset`, `limit` rows; offset 0 replaces the list, anything else appends. */
  const load = (offset: number, limit = PAGE) => {
    const mine = ++latest.current;
    setLoading(true);
    setError(null);
    const query = eventsQuery({ event, properties: ready, after, limit, offset });
    if (actionId !== null) query.actionId = actionId;
    runQuery<{ columns: string[]; results: unknown[][]; hasMore: boolean }>(project, query, undefined, 'force_blocking')
      .then((answer) => {
        if (mine !== latest.current) return;
        const found = readEvents(answer);
        setRows((before) => {
          const next = offset === 0 ? found : [...before, ...found];
          loaded.current = next.length;
          return next;
        });
        setHasMore(answer.hasMore);
        setLoading(false);
      })
      .catch((e) => {
        if (mine !== latest.current) return;
        setError(e instanceof ApiError ? e.message : String(e));
        setLoading(false);
      });
  };

  useEffect(() => { load(0); }, [project, key]);

  useEffect(() => {
    if (!auto) return;
    // Re-read as many rows as are shown, so "Load more" pages stay on screen.
    const timer = setInterval(() => load(0, Math.max(PAGE, loaded.current)), 5000);
    return () => clearInterval(timer);
  }, [auto, project, key]);

  return (
    <section>
      <div class="page-head">
        <div>
          <h1>Activity</h1>
          <p class="muted">The newest events first.</p>
        </div>
        <div class="head-actions">
          <label class="check"><input type="checkbox" name="auto-refresh" checked={auto} onChange={(e) => setAuto((e.currentTarget as HTMLInputElement).checked)} /> Auto-refresh every 5 s</label>
          <button type="button" onClick={() => load(0, Math.max(PAGE, loaded.current))} disabled={loading}>Reload</button>
        </div>
      </div>
      <div class="filters events-filters" role="search">
        <label>Event
          <Combobox label="Event" value={picked?.label ?? 'All events'} load={seriesOptions(project, true)} onPick={(o) => setPicked(o.value === 'all' ? null : o)} />
        </label>
        <label>Time
          <select name="after" value={after} onChange={(e) => setAfter((e.currentTarget as HTMLSelectElement).value)}>
            {RANGES.map(([v, text]) => <option value={v}>{text}</option>)}
          </select>
        </label>
      </div>
      <PropertyFilters project={project} label="Event filters" filters={filters} onChange={setFilters} eventName={event} />
      {error && <p class="error" role="alert">{error}</p>}
      <div aria-busy={loading} data-testid="events" data-state={loading ? 'loading' : 'ready'}>
        <EventsTable project={project} events={rows} />
      </div>
      {!loading && rows.length === 0 && !error && <p class="empty">No events in this range{picked ? ` for ${picked.label}` : ''}.</p>}
      {loading && <p class="muted">Loading…</p>}
      {hasMore && !loading && <div class="pager"><button type="button" onClick={() => load(loaded.current)}>Load more</button></div>}
    </section>
  );
}
