// Settings → Members: the organization's members with their level (changeable by admins and
// owners), remove or leave, and invites with a link to copy (no email is sent).
import { useState } from 'preact/hooks';
import { api } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { useMe } from '../../session';
import { inviteLink, LEVELS, levelName, when, type Invite, type Member } from './types';
import { message, useLoad } from './useLoad';

export function MembersSettings() {
  const me = useMe();
  const organization = me.organization?.id ?? '@current';
  const base = `/api/organizations/${organization}`;
  const members = useLoad<{ results: Member[] }>(`${base}/members/?limit=1000`);
  const invites = useLoad<{ results: Invite[] }>(`${base}/invites/?limit=1000`);
  const [error, setError] = useState<string | null>(null);
  const myLevel = members.data?.results.find((m) => m.user.uuid === me.uuid)?.level ?? 1;

  /** Runs a change and reloads the lists; false (and the error shown) when it was refused. */
  const act = async (work: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      await work();
      members.reload();
      invites.reload();
      return true;
    } catch (e) {
      setError(message(e));
      return false;
    }
  };
  const setLevel = (m: Member, level: number) => act(() => api(`${base}/members/${m.user.uuid}/`, { method: 'PATCH', body: { level } }));
  const remove = async (m: Member) => {
    const done = await act(() => api(`${base}/members/${m.user.uuid}/`, { method: 'DELETE' }));
    // Having left, nothing of this organization is theirs to see: start again from their own.
    if (done && m.user.uuid === me.uuid) location.assign('/');
  };

  return (
    <section class="stack" data-testid="members-settings">
      <div class="page-head"><h1>Members of {me.organization?.name ?? 'the organization'}</h1></div>
      {(members.error || error) && <p class="error" role="alert">{members.error ?? error}</p>}
      <table class="list-table" data-testid="members-table" aria-busy={!members.data}>
        <thead><tr><th>Name</th><th>Email</th><th>Level</th><th>Joined</th><th>Last sign-in</th><th /></tr></thead>
        <tbody>
          {members.data?.results.map((m) => {
            const self = m.user.uuid === me.uuid;
            const editable = !self && myLevel >= 8 && m.level <= myLevel;
            return (
              <tr data-testid="member-row" data-email={m.user.email} data-level={m.level}>
                <td>{m.user.first_name} {m.user.last_name}</td>
                <td>{m.user.email}</td>
                <td>
                  {editable ? (
                    <select aria-label={`Level of ${m.user.email}`} value={String(m.level)} onChange={(e) => setLevel(m, Number((e.currentTarget as HTMLSelectElement).value))}>
                      {LEVELS.filter(([l]) => l <= myLevel || l === m.level).map(([l, name]) => <option value={String(l)}>{name}</option>)}
                    </select>
                  ) : levelName(m.level)}
                </td>
                <td>{when(m.joined_at)}</td>
                <td>{when(m.last_login)}</td>
                <td>
                  {(self || editable) && (
                    <RemoveButton label={self ? 'Leave' : 'Remove'} email={m.user.email} onConfirm={() => remove(m)} />
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <InviteForm base={base} myLevel={myLevel} onInvited={invites.reload} />
      <h2>Pending invites</h2>
      {invites.error && <p class="error" role="alert">{invites.error}</p>}
      {invites.data && invites.data.results.length === 0 && <p class="muted">No pending invites.</p>}
      {invites.data && invites.data.results.length > 0 && (
        <table class="list-table" data-testid="invites-table">
          <thead><tr><th>Email</th><th>Level</th><th>Invited by</th><th>Link</th><th /></tr></thead>
          <tbody>
            {invites.data.results.map((i) => (
              <tr data-testid="invite-row" data-email={i.target_email}>
                <td>{i.target_email}{i.first_name && ` (${i.first_name})`}</td>
                <td>{levelName(i.level)}</td>
                <td>{i.created_by?.email ?? '–'}</td>
                <td>{i.is_expired ? <span class="muted">Expired</span> : <CopyButton text={inviteLink(i.id)} label="Copy link" />}</td>
                <td>{myLevel >= 8 && <button type="button" onClick={() => act(() => api(`${base}/invites/${i.id}/`, { method: 'DELETE' }))}>Cancel</button>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

function RemoveButton({ label, email, onConfirm }: { label: string; email: string; onConfirm: () => void }) {
  const [asking, setAsking] = useState(false);
  if (!asking) return <button type="button" onClick={() => setAsking(true)}>{label}</button>;
  return (
    <span class="inline confirm" role="alert">
      {label === 'Leave' ? 'Leave the organization?' : `Remove ${email}?`}
      <button type="button" class="danger" onClick={onConfirm}>{label}</button>
      <button type="button" onClick={() => setAsking(false)}>Keep</button>
    </span>
  );
}

function InviteForm({ base, myLevel, onInvited }: { base: string; myLevel: number; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [level, setLevel] = useState(1);
  const [made, setMade] = useState<Invite | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setMade(await api<Invite>(`${base}/invites/`, { method: 'POST', body: { target_email: email, first_name: name, level } }));
      setEmail('');
      setName('');
      onInvited();
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <form class="card stack" aria-label="Invite a teammate" data-testid="invite-form" onSubmit={submit}>
      <h2>Invite a teammate</h2>
      <div class="inline">
        <input type="email" name="invite-email" aria-label="Email" placeholder="Email" required value={email} onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)} />
        <input name="invite-first-name" aria-label="First name" placeholder="First name (optional)" value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
        <select aria-label="Invite level" value={String(level)} onChange={(e) => setLevel(Number((e.currentTarget as HTMLSelectElement).value))}>
          {LEVELS.filter(([l]) => l <= myLevel).map(([l, label]) => <option value={String(l)}>{label}</option>)}
        </select>
        <button type="submit" class="primary">Invite</button>
      </div>
      {made && (
        <div class="copy-row" data-testid="invite-link">
          <span>Send this link to {made.target_email} (valid for 3 days):</span>
          <code data-testid="invite-link-value">{inviteLink(made.id)}</code>
          <CopyButton text={inviteLink(made.id)} label="Copy invite link" />
        </div>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </form>
  );
}
