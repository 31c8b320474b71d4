// Data management: the project's events and properties as searchable lists (volume, last seen,
// type, verified and hidden badges, tags), and each definition's page to edit what people say
// about it. Hidden definitions stay listed here but leave the insight builder's pickers.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api';
import { SearchBox, useDebouncedSearch } from '../components/SearchBox';
import { ago, num, when } from '../lib/format';
import {
  getDefinition,
  listDefinitions,
  parseTags,
  PROPERTY_TYPES,
  updateDefinition,
  type Definition,
  type DefinitionKind,
  type PropertyOwner,
} from '../lib/dataManagement';
import { useLoad } from '../lib/useApi';
import { onLinkClick } from '../router';

function Tabs({ project, kind }: { project: string; kind: DefinitionKind }) {
  return (
    <nav class="tabs" aria-label="Data management">
      {(['events', 'properties'] as const).map((k) => (
        <a href={`/project/${project}/data-management/${k}`} onClick={onLinkClick} aria-current={k === kind ? 'page' : undefined}>
          {k === 'events' ? 'Events' : 'Properties'}
        </a>
      ))}
    </nav>
  );
}

function Badges({ definition }: { definition: Definition }) {
  return (
    <>
      {definition.verified && <span class="status-badge active" data-testid="verified-badge">Verified</span>}
      {definition.hidden && <span class="status-badge inactive" data-testid="hidden-badge">Hidden</span>}
    </>
  );
}

const Tags = ({ tags }: { tags: string[] }) => <>{tags.map((t) => <span class="tag">{t}</span>)}</>;

export function DataManagementPage({ project, kind }: { project: string; kind: DefinitionKind }) {
  const { typed, setTyped, search } = useDebouncedSearch();
  const [owner, setOwner] = useState<PropertyOwner>('event');
  const list = useLoad((signal) => listDefinitions(project, kind, search, owner, signal), [project, kind, search, owner]);
  const rows = list.data?.results ?? [];
  return (
    <section>
      <div class="page-head"><h1>Data management</h1></div>
      <Tabs project={project} kind={kind} />
      <div class="inline flag-filters">
        <SearchBox label={`Search ${kind}`} placeholder={kind === 'events' ? 'Search events' : 'Search properties'} value={typed} onInput={setTyped} />
        {kind === 'properties' && (
          <label class="inline">
            Of
            <select aria-label="Property owner" value={owner} onChange={(e) => setOwner((e.currentTarget as HTMLSelectElement).value as PropertyOwner)}>
              <option value="event">Events</option>
              <option value="person">Persons</option>
            </select>
          </label>
        )}
      </div>
      {list.error && <p class="error" role="alert">{list.error}</p>}
      <table class="list-table" data-testid="definitions-table" aria-busy={list.loading} data-state={list.loading ? 'loading' : 'ready'}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            {kind === 'events' ? <><th scope="col">Volume (30 days)</th><th scope="col">Last seen</th></> : <th scope="col">Type</th>}
            <th scope="col">Status</th>
            <th scope="col">Tags</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => (
            <tr data-name={d.name} data-id={d.id} class={d.hidden ? 'inactive' : undefined}>
              <td><a class="mono" href={`/project/${project}/data-management/${kind}/${d.id}`} onClick={onLinkClick}>{d.name}</a></td>
              {kind === 'events' ? (
                <>
                  <td data-testid="volume">{d.volume_30_day === null || d.volume_30_day === undefined ? '—' : num(d.volume_30_day)}</td>
                  <td data-testid="last-seen" title={when(d.last_seen_at)}>{ago(d.last_seen_at)}</td>
                </>
              ) : (
                <td data-testid="property-type">{d.property_type ?? '—'}</td>
              )}
              <td><Badges definition={d} /></td>
              <td><Tags tags={d.tags} /></td>
              <td class="muted ellipsis">{d.description}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {!list.loading && rows.length === 0 && !list.error && <p class="empty">{search ? 'Nothing matches.' : `No ${kind} seen yet.`}</p>}
    </section>
  );
}

export function DefinitionPage({ project, kind, id }: { project: string; kind: DefinitionKind; id: string }) {
  const loaded = useLoad((signal) => getDefinition(project, kind, id, signal), [project, kind, id]);
  const definition = loaded.data;
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [verified, setVerified] = useState(false);
  const [hidden, setHidden] = useState(false);
  const [type, setType] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!definition) return;
    setDescription(definition.description ?? '');
    setTags(definition.tags.join(', '));
    setVerified(definition.verified);
    setHidden(definition.hidden);
    setType(definition.property_type ?? '');
  }, [definition]);

  const save = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setSaved(false);
    setSaving(true);
    try {
      const edit = { description, tags: parseTags(tags), verified, hidden, ...(kind === 'properties' ? { property_type: type === '' ? null : type } : {}) };
      loaded.set(await updateDefinition(project, kind, id, edit));
      setSaved(true);
    } catch (err) {
      setError(err instanceof ApiError ? `${err.message}${err.attr ? ` (${err.attr})` : ''}` : String(err));
    } finally {
      setSaving(false);
    }
  };

  if (loaded.error) return <section><Tabs project={project} kind={kind} /><p class="error" role="alert">{loaded.error}</p></section>;
  if (!definition) return <section><p class="muted">Loading…</p></section>;
  return (
    <section>
      <div class="page-head">
        <div class="inline">
          <h1 class="definition-title" data-testid="definition-name">{definition.name}</h1>
          <Badges definition={definition} />
        </div>
      </div>
      <Tabs project={project} kind={kind} />
      <dl class="facts">
        {kind === 'events' && (
          <>
            <dt>Volume (30 days)</dt><dd data-testid="definition-volume">{num(definition.volume_30_day ?? 0)}</dd>
            <dt>Last seen</dt><dd title={when(definition.last_seen_at)}>{ago(definition.last_seen_at)}</dd>
            <dt>First seen</dt><dd title={when(definition.created_at)}>{ago(definition.created_at)}</dd>
          </>
        )}
        {definition.verified_by && <><dt>Verified by</dt><dd>{definition.verified_by.first_name || definition.verified_by.email} {ago(definition.verified_at)}</dd></>}
        {definition.updated_by && <><dt>Last edited by</dt><dd data-testid="updated-by">{definition.updated_by.first_name || definition.updated_by.email} {ago(definition.updated_at)}</dd></>}
      </dl>
      <form class="definition-form" aria-label="Edit definition" onSubmit={save}>
        <label>
          Description
          <textarea name="description" rows={3} value={description} onInput={(e) => { setDescription((e.currentTarget as HTMLTextAreaElement).value); setSaved(false); }} />
        </label>
        <label>
          Tags
          <input name="tags" placeholder="comma-separated, e.g. revenue, core" value={tags} onInput={(e) => { setTags((e.currentTarget as HTMLInputElement).value); setSaved(false); }} />
        </label>
        {kind === 'properties' && (
          <label>
            Type
            <select name="property_type" value={type} onChange={(e) => { setType((e.currentTarget as HTMLSelectElement).value); setSaved(false); }}>
              <option value="">From the values seen</option>
              {PROPERTY_TYPES.map((t) => <option value={t}>{t}</option>)}
            </select>
          </label>
        )}
        <label class="inline">
          <input type="checkbox" name="verified" checked={verified} onChange={(e) => { const on = (e.currentTarget as HTMLInputElement).checked; setVerified(on); if (on) setHidden(false); setSaved(false); }} />
          Verified
        </label>
        <label class="inline">
          <input type="checkbox" name="hidden" checked={hidden} onChange={(e) => { const on = (e.currentTarget as HTMLInputElement).checked; setHidden(on); if (on) setVerified(false); setSaved(false); }} />
          Hidden <span class="muted">(left out of the insight builder's pickers)</span>
        </label>
        <div class="inline">
          <button type="submit" class="primary" disabled={saving}>Save</button>
          {saved && <span class="muted" role="status">Saved</span>}
        </div>
        {error && <p class="error" role="alert">{error}</p>}
      </form>
    </section>
  );
}
