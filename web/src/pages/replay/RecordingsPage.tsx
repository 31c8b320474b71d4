// Session replay: the project's recordings (PostHog's /replay/recent), newest first, with start
// time, duration, person, first URL and activity; filters on date range, person and duration.
// A row opens the recording (/replay/:session_id) in the player.
import { useState } from 'preact/hooks';
import { duration, when } from '../../lib/format';
import { DEFAULT_FILTERS, listRecordings, RECORDING_FILTERS, type Recording, type RecordingFilters } from '../../lib/recordings';
import { useLoad } from '../../lib/useApi';
import { navigate, onLinkClick } from '../../router';
import '../../components/replay/replay.css';

const PAGE = 50;

export function RecordingsPage({ project }: { project: string }) {
  const [draft, setDraft] = useState<RecordingFilters>(DEFAULT_FILTERS);
  const [filters, setFilters] = useState<RecordingFilters>(DEFAULT_FILTERS);
  const [offset, setOffset] = useState(0);
  const page = useLoad((signal) => listRecordings(project, filters, PAGE, offset, signal), [project, filters, offset]);
  const rows: Recording[] = page.data?.results ?? [];
  const hasNext = page.data?.has_next ?? false;
  const { loading, error } = page;
  const open = (id: string) => navigate(`/project/${project}/replay/${encodeURIComponent(id)}`);

  return (
    <section>
      <div class="page-head"><h1>Session replay</h1></div>
      <form class="recording-filters" aria-label="Recording filters" onSubmit={(e) => { e.preventDefault(); setOffset(0); setFilters({ ...draft }); }}>
        {RECORDING_FILTERS.map((field) => (
          <label key={field.key}>
            {field.label}
            {field.options ? (
              <select name={field.key} value={draft[field.key]} onChange={(e) => { const next = { ...draft, [field.key]: (e.target as HTMLSelectElement).value }; setDraft(next); setOffset(0); setFilters(next); }}>
                {field.options.map(([value, label]) => <option value={value}>{label}</option>)}
              </select>
            ) : (
              <input name={field.key} value={draft[field.key]} placeholder={field.placeholder} inputMode={field.inputMode} onInput={(e) => setDraft({ ...draft, [field.key]: (e.target as HTMLInputElement).value })} />
            )}
          </label>
        ))}
        <button type="submit">Apply</button>
      </form>
      {error && <p class="error" role="alert">{error}</p>}
      <table class="list-table recordings-table" data-testid="recordings-table" aria-busy={loading} data-state={loading ? 'loading' : 'ready'}>
        <thead>
          <tr><th scope="col">Start</th><th scope="col">Duration</th><th scope="col">Person</th><th scope="col">First URL</th><th scope="col">Activity</th></tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr data-id={r.id} class="clickable" onClick={() => open(r.id)}>
              <td><a href={`/project/${project}/replay/${encodeURIComponent(r.id)}`} onClick={(e) => { e.stopPropagation(); onLinkClick(e); }} title={r.start_time}>{when(r.start_time)}</a></td>
              <td data-seconds={r.recording_duration}>{duration(r.recording_duration)}</td>
              <td>
                {r.person
                  ? <a href={`/project/${project}/person/${r.person.uuid ?? r.person.id}`} onClick={(e) => { e.stopPropagation(); onLinkClick(e); }}>{r.person.name}</a>
                  : <span class="mono">{r.distinct_id}</span>}
              </td>
              <td class="mono recording-url" title={r.start_url ?? ''}>{r.start_url ?? '–'}</td>
              <td class="recording-activity">
                <span title="Clicks">{r.click_count} clicks</span> · <span title="Keypresses">{r.keypress_count} keys</span>
                {' · '}<span title="Console errors" class={r.console_error_count > 0 ? 'error-text' : ''}>{r.console_error_count} errors</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!loading && rows.length === 0 && !error && <p class="empty">No recordings match. Turn on "Record user sessions" in the project's settings to record visits.</p>}
      {(offset > 0 || hasNext) && (
        <div class="pager">
          <button type="button" disabled={offset === 0 || loading} onClick={() => setOffset(Math.max(0, offset - PAGE))}>Previous</button>
          <span class="muted">{offset + 1}–{offset + rows.length}</span>
          <button type="button" disabled={!hasNext || loading} onClick={() => setOffset(offset + PAGE)}>Next</button>
        </div>
      )}
    </section>
  );
}
