// Sign in with email and password: POST /api/login/ sets the session and csrftoken cookies.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../api';
import { navigate } from '../router';

/** Only same-site paths are followed after signing in. */
const safeNext = (next: string | null) => (next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/login') ? next : '/');

export function LoginPage({ next }: { next: string | null }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api('/api/login/', { method: 'POST', body: { email, password }, redirectOn401: false });
      navigate(safeNext(next), true);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
      setBusy(false);
    }
  };

  return (
    <main class="login">
      <form class="card login-card" onSubmit={submit} aria-label="Sign in">
        <h1><span class="mark" aria-hidden="true" /> Hoglet</h1>
        <label>
          Email
          <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail((e.currentTarget as HTMLInputElement).value)} />
        </label>
        <label>
          Password
          <input type="password" name="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword((e.currentTarget as HTMLInputElement).value)} />
        </label>
        {error && <p class="error" role="alert">{error}</p>}
        <button type="submit" class="primary" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
    </main>
  );
}
