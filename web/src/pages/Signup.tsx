// The invite link's page (/signup/<invite id>): shows the organization and masked email of the
// invite (GET /api/signup/<id>/), takes a name and a password, and signs the new member in; a
// visitor already signed in joins with their own account (the invite must be to their email).
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { navigate } from '../router';

interface Preview {
  id: string;
  target_email: string;
  first_name: string;
  organization_name: string;
}

export function SignupPage({ invite }: { invite: string }) {
  const [preview, setPreview] = useState<Preview | null>(null);
  const [invalid, setInvalid] = useState<string | null>(null);
  const [firstName, setFirstName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** Someone already signed in joins with their own account (the invite must be to their email). */
  const [signedInAs, setSignedInAs] = useState<string | null>(null);
  const path = `/api/signup/${encodeURIComponent(invite)}/`;

  useEffect(() => {
    api<{ email: string }>('/api/users/@me/', { redirectOn401: false }).then((me) => setSignedInAs(me.email)).catch(() => setSignedInAs(null));
  }, []);

  useEffect(() => {
    api<Preview>(path, { redirectOn401: false })
      .then((p) => { setPreview(p); setFirstName(p.first_name); })
      .catch((e) => setInvalid(e instanceof ApiError ? e.message : String(e)));
  }, [path]);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api(path, { method: 'POST', body: signedInAs ? {} : { first_name: firstName, password }, redirectOn401: false });
      // The answer signed this browser in; the app opens the organization's first project.
      location.assign('/');
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  };

  return (
    <main class="login">
      <form class="card login-card" onSubmit={submit} aria-label="Join the organization">
        <h1><span class="mark" aria-hidden="true" /> Hoglet</h1>
        {invalid && (
          <>
            <p class="error" role="alert">{invalid}</p>
            <p><a href="/login" onClick={(e) => { e.preventDefault(); navigate('/login'); }}>Sign in instead</a></p>
          </>
        )}
        {!invalid && !preview && <p class="muted">Loading…</p>}
        {preview && (
          <>
            <p data-testid="signup-organization">Join <strong>{preview.organization_name}</strong> as {preview.target_email}.</p>
            {signedInAs && <p class="muted">You are signed in as {signedInAs}: join with this account.</p>}
            {!signedInAs && (
              <>
                <label>
                  First name
                  <input name="first_name" autoComplete="given-name" required value={firstName} onInput={(e) => setFirstName((e.currentTarget as HTMLInputElement).value)} />
                </label>
                <label>
                  Password (at least 8 characters)
                  <input type="password" name="password" autoComplete="new-password" required minLength={8} value={password} onInput={(e) => setPassword((e.currentTarget as HTMLInputElement).value)} />
                </label>
              </>
            )}
            {error && <p class="error" role="alert">{error}</p>}
            <button type="submit" class="primary" disabled={busy}>{busy ? 'Joining…' : 'Join'}</button>
          </>
        )}
      </form>
    </main>
  );
}
