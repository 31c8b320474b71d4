// Settings → Personal API keys: create one with a label and scopes (all access, or read / write
// per object), see its value once with a copy button, the list with last use, roll and delete.
import { useState } from 'preact/hooks';
import { api } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { when, type PersonalKey } from './types';
import { message, useLoad } from './useLoad';

/** PostHog's scope objects, as the API checks them (src/core/scopes.ts). */
const SCOPE_OBJECTS = [
  'action', 'activity_log', 'annotation', 'batch_export', 'cohort', 'dashboard', 'dashboard_template',
  'early_access_feature', 'event_definition', 'experiment', 'export', 'feature_flag', 'group',
  'hog_function', 'insight', 'notebook', 'organization', 'organization_member', 'person', 'plugin',
  'project', 'property_definition', 'query', 'session_recording', 'session_recording_playlist',
  'sharing_configuration', 'subscription', 'survey', 'user', 'webhook',
];

type Access = '' | 'read' | 'write';

export function PersonalKeysSettings() {
  const keys = useLoad<PersonalKey[]>('/api/personal_api_keys/');
  const [shown, setShown] = useState<PersonalKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = async (work: () => Promise<PersonalKey | unknown>) => {
    setError(null);
    try {
      const answer = await work();
      if (answer && typeof answer === 'object' && typeof (answer as PersonalKey).value === 'string') setShown(answer as PersonalKey);
      keys.reload();
    } catch (e) {
      setError(message(e));
    }
  };
  return (
    <section class="stack" data-testid="keys-settings">
      <div class="page-head"><h1>Personal API keys</h1></div>
      <p class="muted">A key acts as you, within its scopes, from scripts and other servers: send it as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
      <NewKeyForm onCreate={(body) => act(() => api<PersonalKey>('/api/personal_api_keys/', { method: 'POST', body }))} />
      {shown && (
        <div class="card stack" role="status" data-testid="new-key">
          <strong>Copy the key "{shown.label}" now: it is not shown again.</strong>
          <div class="copy-row">
            <code data-testid="new-key-value">{shown.value}</code>
            <CopyButton text={shown.value!} label="Copy key" />
            <button type="button" onClick={() => setShown(null)}>Done</button>
          </div>
        </div>
      )}
      {(keys.error || error) && <p class="error" role="alert">{keys.error ?? error}</p>}
      <table class="list-table" data-testid="keys-table" aria-busy={!keys.data}>
        <thead><tr><th>Label</th><th>Key</th><th>Scopes</th><th>Created</th><th>Last used</th><th /></tr></thead>
        <tbody>
          {keys.data?.length === 0 && <tr><td colSpan={6} class="muted">No keys yet.</td></tr>}
          {keys.data?.map((k) => (
            <tr data-testid="key-row" data-label={k.label}>
              <td>{k.label}</td>
              <td><code>{k.mask_value}</code></td>
              <td>{k.scopes.includes('*') ? 'All access' : k.scopes.join(', ')}</td>
              <td>{when(k.created_at)}</td>
              <td data-testid="key-last-used">{when(k.last_used_at)}</td>
              <td class="inline">
                <button type="button" onClick={() => act(() => api<PersonalKey>(`/api/personal_api_keys/${k.id}/roll/`, { method: 'POST' }))}>Roll</button>
                <button type="button" class="danger" onClick={() => act(() => api(`/api/personal_api_keys/${k.id}/`, { method: 'DELETE' }))}>Delete</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function NewKeyForm({ onCreate }: { onCreate: (body: { label: string; scopes: string[] }) => Promise<void> }) {
  const [label, setLabel] = useState('');
  const [all, setAll] = useState(false);
  const [access, setAccess] = useState<Record<string, Access>>({});
  const scopes = all ? ['*'] : Object.entries(access).filter(([, a]) => a).map(([o, a]) => `${o}:${a}`);
  const submit = async (e: Event) => {
    e.preventDefault();
    await onCreate({ label, scopes });
    setLabel('');
    setAccess({});
    setAll(false);
  };
  return (
    <form class="card stack" aria-label="Create a personal API key" data-testid="new-key-form" onSubmit={submit}>
      <h2>Create a key</h2>
      <label>
        Label
        <input name="key-label" required maxLength={40} value={label} onInput={(e) => setLabel((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <div>
        <label class="inline">
          <input type="checkbox" name="all-access" checked={all} onChange={(e) => setAll((e.currentTarget as HTMLInputElement).checked)} />
          All access (every scope, read and write)
        </label>
      </div>
      {!all && (
        <fieldset class="scope-grid" data-testid="scope-picker">
          <legend>Scopes</legend>
          {SCOPE_OBJECTS.map((object) => (
            <label class="inline">
              <span class="mono">{object}</span>
              <select aria-label={`Scope ${object}`} value={access[object] ?? ''} onChange={(e) => setAccess({ ...access, [object]: (e.currentTarget as HTMLSelectElement).value as Access })}>
                <option value="">No access</option>
                <option value="read">Read</option>
                <option value="write">Write</option>
              </select>
            </label>
          ))}
        </fieldset>
      )}
      <div class="inline">
        <button type="submit" class="primary" disabled={scopes.length === 0}>Create key</button>
        <span class="muted">{scopes.length === 0 ? 'Pick at least one scope.' : `Scopes: ${scopes.join(', ')}`}</span>
      </div>
    </form>
  );
}
