// Project settings, each section saved on its own with PATCH /api/projects/:id/: name, token
// (copy, reset), the feature flags secret key (reveal, copy, rotate, delete the backup), time
// zone, test-account filters, path cleaning rules, session replay and data retention.
import type { ComponentChildren } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { CopyButton } from '../components/CopyButton';
import { num } from '../lib/format';
import { PropertyFilters } from '../components/PropertyFilters';
import { complete, readFilters, type PropertyFilter } from '../lib/filters';
import { useUpdateMe, withTeamName } from '../session';
import { SessionReplaySettings, type ReplayFields } from './settings/SessionReplaySettings';

interface Project extends ReplayFields {
  id: number;
  name: string;
  api_token: string;
  secret_api_token: string | null;
  secret_api_token_backup: string | null;
  timezone: string;
  test_account_filters: PropertyFilter[];
  test_account_filters_default_checked: boolean | null;
  path_cleaning_filters: { alias: string; regex: string }[] | null;
  event_retention_months: number | null;
}

function zones(current: string): string[] {
  const all = (Intl as any).supportedValuesOf?.('timeZone') as string[] | undefined;
  const list = all && all.length ? [...all] : [current];
  // Intl lists no plain "UTC" in some engines; PostHog's default is UTC.
  for (const z of ['UTC', current]) if (!list.includes(z)) list.unshift(z);
  return list;
}

export function SettingsPage({ project }: { project: string }) {
  const [p, setP] = useState<Project | null>(null);
  const [error, setError] = useState<string | null>(null);
  const path = `/api/projects/${project}/`;
  useEffect(() => {
    api<Project>(path).then(setP).catch((e) => setError(e instanceof ApiError ? e.message : String(e)));
  }, [path]);

  const updateMe = useUpdateMe();
  /** Saves some fields; the answer (the whole project) becomes the page's state, and its name the switcher's. */
  const save = async (body: Partial<Project>) => {
    const saved = await api<Project>(path, { method: 'PATCH', body });
    setP(saved);
    updateMe((me) => withTeamName(me, saved.id, saved.name));
  };

  if (error) return <p class="error" role="alert">{error}</p>;
  if (!p) return <p class="muted">Loading…</p>;
  return (
    <section class="settings">
      <div class="page-head"><h1>Project settings</h1></div>
      <NameSection project={p} save={save} />
      <TokenSection project={p} path={path} onReset={setP} />
      <SecretKeySection project={p} path={path} onChange={setP} />
      <TimezoneSection project={p} save={save} />
      <TestAccountsSection project={p} projectId={project} save={save} />
      <PathCleaningSection project={p} save={save} />
      <SessionReplaySettings project={p} save={save} />
      <RetentionSection project={p} path={path} save={save} />
    </section>
  );
}

type Save = (body: Partial<Project>) => Promise<void>;

/** A settings card with a Save button and its outcome. */
function Section({ title, testId, children, onSave, description }: { title: string; testId: string; children: ComponentChildren; onSave?: () => Promise<void>; description?: string }) {
  const [state, setState] = useState<{ busy: boolean; note: string | null; error: string | null }>({ busy: false, note: null, error: null });
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!onSave) return;
    setState({ busy: true, note: null, error: null });
    try {
      await onSave();
      setState({ busy: false, note: 'Saved.', error: null });
    } catch (err) {
      setState({ busy: false, note: null, error: err instanceof ApiError ? err.message : String(err) });
    }
  };
  return (
    <form class="card settings-section stack" aria-label={title} data-testid={testId} onSubmit={submit}>
      <h2>{title}</h2>
      {description && <p class="muted">{description}</p>}
      {children}
      {onSave && (
        <div class="inline">
          <button type="submit" class="primary" disabled={state.busy}>{state.busy ? 'Saving…' : 'Save'}</button>
          {state.note && <span class="muted" role="status">{state.note}</span>}
        </div>
      )}
      {state.error && <p class="error" role="alert">{state.error}</p>}
    </form>
  );
}

function NameSection({ project, save }: { project: Project; save: Save }) {
  const [name, setName] = useState(project.name);
  return (
    <Section title="Name" testId="settings-name" onSave={() => save({ name: name.trim() })}>
      <input name="project-name" aria-label="Project name" value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} required />
    </Section>
  );
}

/** One of the project's actions (`PATCH <path><action>/`), whose answer is the whole project. */
function useProjectAction(path: string, onDone: (p: Project) => void) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async (action: string) => {
    setError(null);
    try {
      onDone(await api<Project>(`${path}${action}/`, { method: 'PATCH', body: {} }));
      setConfirming(false);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    }
  };
  return { run, error, confirming, setConfirming };
}

/** A warning with a button that goes ahead and one that keeps things as they are. */
function Confirm({ message, yes, onYes, onNo }: { message: string; yes: string; onYes: () => void; onNo: () => void }) {
  return (
    <div class="inline warn" role="alert">
      <span>{message}</span>
      <button type="button" class="danger" onClick={onYes}>{yes}</button>
      <button type="button" onClick={onNo}>Keep it</button>
    </div>
  );
}

function TokenSection({ project, path, onReset }: { project: Project; path: string; onReset: (p: Project) => void }) {
  const { run, error, confirming, setConfirming } = useProjectAction(path, onReset);
  const reset = () => run('reset_token');
  return (
    <Section title="Project token" testId="settings-token" description="SDKs send events with this token. It is not a secret: it can only write events.">
      <div class="copy-row">
        <code data-testid="project-token">{project.api_token}</code>
        <CopyButton text={project.api_token} label="Copy token" />
        {!confirming && <button type="button" onClick={() => setConfirming(true)}>Reset token</button>}
      </div>
      {confirming && <Confirm message="Apps using the old token will stop sending events." yes="Reset it" onYes={reset} onNo={() => setConfirming(false)} />}
      {error && <p class="error" role="alert">{error}</p>}
    </Section>
  );
}

/** PostHog's masked form of a key: its prefix and last four characters. */
const masked = (key: string) => `${key.slice(0, 4)}...${key.slice(-4)}`;

function SecretKeySection({ project, path, onChange }: { project: Project; path: string; onChange: (p: Project) => void }) {
  const { run, error, confirming, setConfirming } = useProjectAction(path, onChange);
  const [revealed, setRevealed] = useState(false);
  const key = project.secret_api_token;
  const backup = project.secret_api_token_backup;
  return (
    <Section title="Feature flags secure API key" testId="settings-secret-key" description="Servers evaluating flags locally read the flag definitions with this key (posthog-node: personalApiKey). It reads nothing else.">
      {key ? (
        <div class="copy-row">
          <code data-testid="secret-key">{revealed ? key : masked(key)}</code>
          <button type="button" onClick={() => setRevealed(!revealed)}>{revealed ? 'Hide' : 'Reveal'}</button>
          <CopyButton text={key} label="Copy key" />
          {!confirming && <button type="button" onClick={() => setConfirming(true)}>Rotate key</button>}
        </div>
      ) : (
        <div class="inline">
          <span class="muted">No key yet.</span>
          <button type="button" onClick={() => run('rotate_secret_token')}>Generate key</button>
        </div>
      )}
      {confirming && (
        <Confirm message="A new key replaces this one, which keeps working as the backup until you delete it." yes="Rotate it" onYes={() => run('rotate_secret_token')} onNo={() => setConfirming(false)} />
      )}
      {backup && (
        <div class="inline" data-testid="secret-key-backup">
          <span class="muted">Backup key</span>
          <code>{masked(backup)}</code>
          <button type="button" class="danger" onClick={() => run('delete_secret_token_backup')}>Delete backup</button>
        </div>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </Section>
  );
}

function TimezoneSection({ project, save }: { project: Project; save: Save }) {
  const [zone, setZone] = useState(project.timezone);
  const list = useMemo(() => zones(project.timezone), [project.timezone]);
  return (
    <Section title="Time zone" testId="settings-timezone" description="Days, weeks and months of every insight start in this zone." onSave={() => save({ timezone: zone })}>
      <select name="timezone" aria-label="Time zone" value={zone} onChange={(e) => setZone((e.currentTarget as HTMLSelectElement).value)}>
        {list.map((z) => <option value={z}>{z}</option>)}
      </select>
    </Section>
  );
}

function TestAccountsSection({ project, projectId, save }: { project: Project; projectId: string; save: Save }) {
  const [filters, setFilters] = useState<PropertyFilter[] | null>(readFilters(project.test_account_filters));
  const [byDefault, setByDefault] = useState(!!project.test_account_filters_default_checked);
  return (
    <Section
      title="Internal and test users"
      testId="settings-test-accounts"
      description="Events matching any of these filters are left out of insights that filter out test users."
      onSave={() => save({ test_account_filters: filters ? complete(filters) : project.test_account_filters, test_account_filters_default_checked: byDefault })}
    >
      <PropertyFilters project={projectId} label="Test account filters" filters={filters} onChange={setFilters} />
      <label class="check">
        <input type="checkbox" name="filter-test-default" checked={byDefault} onChange={(e) => setByDefault((e.currentTarget as HTMLInputElement).checked)} />
        Filter out test users in new insights by default
      </label>
    </Section>
  );
}

function PathCleaningSection({ project, save }: { project: Project; save: Save }) {
  const [rules, setRules] = useState(project.path_cleaning_filters ?? []);
  const set = (i: number, field: 'alias' | 'regex', value: string) => setRules(rules.map((r, k) => (k === i ? { ...r, [field]: value } : r)));
  return (
    <Section
      title="Path cleaning rules"
      testId="settings-path-cleaning"
      description="Paths insights replace each match of a regular expression with its alias, e.g. /user/\d+ → /user/:id."
      onSave={() => save({ path_cleaning_filters: rules.filter((r) => r.regex.trim()) })}
    >
      {rules.map((rule, i) => (
        <div class="inline" data-testid="path-rule">
          <input aria-label={`Rule ${i + 1} regex`} placeholder="regex" value={rule.regex} onInput={(e) => set(i, 'regex', (e.currentTarget as HTMLInputElement).value)} />
          <span aria-hidden="true">→</span>
          <input aria-label={`Rule ${i + 1} alias`} placeholder="alias" value={rule.alias} onInput={(e) => set(i, 'alias', (e.currentTarget as HTMLInputElement).value)} />
          <button type="button" class="icon-button" aria-label={`Remove rule ${i + 1}`} onClick={() => setRules(rules.filter((_, k) => k !== i))}>✕</button>
        </div>
      ))}
      <button type="button" class="link-button" onClick={() => setRules([...rules, { alias: '', regex: '' }])}>+ Add rule</button>
    </Section>
  );
}

/** GET <project>/event_retention/: what the setting keeps now and what the retention job last removed. */
interface RetentionStatus {
  event_retention_months: number | null;
  keeps_events_from: string | null;
  last_run: { cutoff: string; ran_at: string; events_removed: number } | null;
}

/** A day in UTC, as the retention job cuts: "1 Nov 2025". */
const utcDay = (iso: string) => new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const utcTime = (iso: string) => new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

function RetentionSection({ project, path, save }: { project: Project; path: string; save: Save }) {
  const [months, setMonths] = useState(project.event_retention_months === null ? '' : String(project.event_retention_months));
  const [status, setStatus] = useState<RetentionStatus | null>(null);
  const load = () => api<RetentionStatus>(`${path}event_retention/`).then(setStatus, () => setStatus(null));
  useEffect(() => void load(), [path]);
  const onSave = async () => {
    const text = months.trim();
    // Sent as typed (no browser limits on the field): the server says why a value is refused.
    await save({ event_retention_months: text === '' ? null : Number(text) });
    await load();
  };
  const run = status?.last_run;
  return (
    <Section
      title="Data retention"
      testId="settings-retention"
      description="Events older than the current month and this many months before it are removed for good, a whole month at a time, within the hour. Empty keeps every event."
      onSave={onSave}
    >
      <div class="inline">
        <input type="number" name="event-retention-months" aria-label="Months of events kept" placeholder="Keep everything" value={months} onInput={(e) => setMonths((e.currentTarget as HTMLInputElement).value)} />
        <span>months before the current one</span>
      </div>
      <p class="muted" data-testid="retention-keeps">
        {status?.keeps_events_from ? `Keeps events from ${utcDay(status.keeps_events_from)} (UTC) on.` : 'Keeps every event.'}
      </p>
      {run && (
        <p class="muted" data-testid="retention-last-run" data-removed={run.events_removed}>
          {`Last checked ${utcTime(run.ran_at)} UTC. ${num(run.events_removed)} events from before ${utcDay(run.cutoff)} removed.`}
        </p>
      )}
    </Section>
  );
}
