// The signed-in frame: project switcher, navigation, who is signed in, sign out.
import type { ComponentChildren } from 'preact';
import { api } from '../api';
import { navigate, onLinkClick } from '../router';
import { useMe } from '../session';

export function Shell({ project, section, children }: { project: string; section: 'insights' | 'dashboards' | null; children: ComponentChildren }) {
  const me = useMe();
  const teams = me.organization?.teams ?? (me.team ? [me.team] : []);
  const signOut = async () => {
    try {
      await api('/api/logout/', { method: 'POST', redirectOn401: false });
    } finally {
      navigate('/login', true);
    }
  };
  return (
    <div class="shell">
      <header class="topbar">
        <a href={`/project/${project}/insights`} onClick={onLinkClick} class="brand"><span class="mark" aria-hidden="true" /> Hoglet</a>
        <label class="project-switch">
          <span class="sr-only">Project</span>
          <select
            name="project"
            value={project}
            onChange={(e) => navigate(`/project/${(e.currentTarget as HTMLSelectElement).value}/${section === 'dashboards' ? 'dashboard' : 'insights'}`)}
          >
            {teams.map((t) => <option value={String(t.id)}>{t.name}</option>)}
            {!teams.some((t) => String(t.id) === project) && <option value={project}>Project {project}</option>}
          </select>
        </label>
        <nav aria-label="Main">
          <a href={`/project/${project}/insights`} onClick={onLinkClick} aria-current={section === 'insights' ? 'page' : undefined}>Insights</a>
          <a href={`/project/${project}/dashboard`} onClick={onLinkClick} aria-current={section === 'dashboards' ? 'page' : undefined}>Dashboards</a>
        </nav>
        <span class="spacer" />
        <span class="who" data-testid="signed-in-email">{me.email}</span>
        <button type="button" onClick={signOut}>Sign out</button>
      </header>
      <main class="content">{children}</main>
    </div>
  );
}
