// Settings → Account: your name, a new password (PATCH /api/users/@me/ with current_password,
// PostHog's shape: other browsers are signed out, this one stays) and signing out everywhere
// (POST /api/users/@me/sign_out_everywhere/).
import { useState } from 'preact/hooks';
import { api } from '../../api';
import { navigate } from '../../router';
import { useMe, useUpdateMe } from '../../session';
import type { Me } from '../../types';
import { message } from './useLoad';

export function AccountSettings() {
  return (
    <section class="stack" data-testid="account-settings">
      <div class="page-head"><h1>Your account</h1></div>
      <NameForm />
      <PasswordForm />
      <SignOutEverywhere />
    </section>
  );
}

function useSubmit(work: () => Promise<string>) {
  const [state, setState] = useState<{ note: string | null; error: string | null; busy: boolean }>({ note: null, error: null, busy: false });
  const submit = async (e: Event) => {
    e.preventDefault();
    setState({ note: null, error: null, busy: true });
    try {
      setState({ note: await work(), error: null, busy: false });
    } catch (err) {
      setState({ note: null, error: message(err), busy: false });
    }
  };
  return { ...state, submit };
}

function NameForm() {
  const me = useMe();
  const updateMe = useUpdateMe();
  const [first, setFirst] = useState(me.first_name);
  const [last, setLast] = useState(me.last_name);
  const form = useSubmit(async () => {
    const saved = await api<Me>('/api/users/@me/', { method: 'PATCH', body: { first_name: first, last_name: last } });
    updateMe((m) => ({ ...m, first_name: saved.first_name, last_name: saved.last_name }));
    return 'Saved.';
  });
  return (
    <form class="card stack" aria-label="Name" onSubmit={form.submit}>
      <h2>Name</h2>
      <p class="muted">Signed in as {me.email}.</p>
      <div class="inline">
        <input name="first-name" aria-label="First name" placeholder="First name" value={first} onInput={(e) => setFirst((e.currentTarget as HTMLInputElement).value)} />
        <input name="last-name" aria-label="Last name" placeholder="Last name" value={last} onInput={(e) => setLast((e.currentTarget as HTMLInputElement).value)} />
        <button type="submit" class="primary" disabled={form.busy}>Save</button>
        {form.note && <span class="muted" role="status">{form.note}</span>}
      </div>
      {form.error && <p class="error" role="alert">{form.error}</p>}
    </form>
  );
}

function PasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const form = useSubmit(async () => {
    await api('/api/users/@me/', { method: 'PATCH', body: { current_password: current, password: next } });
    setCurrent('');
    setNext('');
    return 'Password changed. Other browsers were signed out.';
  });
  return (
    <form class="card stack" aria-label="Change password" onSubmit={form.submit}>
      <h2>Change password</h2>
      <label>
        Current password
        <input type="password" name="current-password" autoComplete="current-password" required value={current} onInput={(e) => setCurrent((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <label>
        New password (at least 8 characters)
        <input type="password" name="new-password" autoComplete="new-password" required minLength={8} value={next} onInput={(e) => setNext((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <div class="inline">
        <button type="submit" class="primary" disabled={form.busy}>Change password</button>
        {form.note && <span class="muted" role="status">{form.note}</span>}
      </div>
      {form.error && <p class="error" role="alert">{form.error}</p>}
    </form>
  );
}

function SignOutEverywhere() {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const go = async () => {
    try {
      await api('/api/users/@me/sign_out_everywhere/', { method: 'POST', redirectOn401: false });
      navigate('/login', true);
    } catch (e) {
      setError(message(e));
    }
  };
  return (
    <div class="card stack" data-testid="sign-out-everywhere">
      <h2>Sign out everywhere</h2>
      <p class="muted">Ends every web app session of yours, on every device, this one included. Personal API keys keep working.</p>
      {!asking ? (
        <div><button type="button" onClick={() => setAsking(true)}>Sign out everywhere</button></div>
      ) : (
        <div class="inline confirm" role="alert">
          Sign out of every browser?
          <button type="button" class="danger" onClick={go}>Sign out everywhere</button>
          <button type="button" onClick={() => setAsking(false)}>Cancel</button>
        </div>
      )}
      {error && <p class="error" role="alert">{error}</p>}
    </div>
  );
}
