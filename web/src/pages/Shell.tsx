// The signed-in frame: project switcher, navigation, who is signed in, sign out.
import type { ComponentChildren } from 'preact';
import { api } from '../api';
import { navigate, onLinkClick } from '../router';
import { useMe } from '../session';

export type Section = 'insights' | 'dashboards' | 'web' | 'sql' | 'events' | 'actions' | 'data' | 'persons' | 'groups' | 'cohorts' | 'flags' | 'replay' | 'settings';

/** Each section's list page: where the project switcher lands. */
const HOME: Record<Section, string> = { insights: 'insights', dashboards: 'dashboard', web: 'web', sql: 'sql', events: 'events', actions: 'actions', data: 'data-management/events', persons: 'persons', groups: 'groups', cohorts: 'cohorts', flags: 'feature_flags', replay: 'replay/recent', settings: 'settings' };
const NAV: [Section, string][] = [['insights', 'Insights'], ['dashboards', 'Dashboards'], ['web', 'Web analytics'], ['sql', 'SQL'], ['events', 'Activity'], ['actions', 'Actions'], ['data', 'Data management'], ['persons', 'People'], ['groups', 'Groups'], ['cohorts', 'Cohorts'], ['flags', 'Feature flags'], ['replay', 'Session replay'], ['settings', 'Settings']];

export function Shell({ project, section, children }: { project: string; section: Section | null; children: ComponentChildren }) {
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
            onChange={(e) => {
              const id = (e.currentTarget as HTMLSelectElement).value;
              // PostHog's switcher makes it the current project too: "/" opens it next time.
              void api('/api/users/@me/', { method: 'PATCH', body: { set_current_team: Number(id) } }).catch(() => undefined);
              navigate(`/project/${id}/${HOME[section ?? 'insights']}`);
            }}
          >
            {teams.map((t) => <option value={String(t.id)}>{t.name}</option>)}
            {!teams.some((t) => String(t.id) === project) && <option value={project}>Project {project}</option>}
          </select>
        </label>
        <nav aria-label="Main">
          {NAV.map(([s, label]) => (
            <a href={`/project/${project}/${HOME[s]}`} onClick={onLinkClick} aria-current={section === s ? 'page' : undefined}>{label}</a>
          ))}
        </nav>
        <span class="spacer" />
        <span class="who" data-testid="signed-in-email">{me.email}</span>
        <button type="button" onClick={signOut}>Sign out</button>
      </header>
      <main class="content">{children}</main>
    </div>
  );
}
