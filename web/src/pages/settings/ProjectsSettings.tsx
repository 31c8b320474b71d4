// Settings → Projects: the organization's projects, create one, switch to one (PATCH
// /api/users/@me/ set_current_team, as PostHog's switcher does) and delete one after typing its
// name.
import { useState } from 'preact/hooks';
import { api } from '../../api';
import { navigate } from '../../router';
import { useMe, useUpdateMe } from '../../session';
import type { Me, TeamBasic } from '../../types';
import { message, useLoad } from './useLoad';

interface ProjectRow extends TeamBasic {
  created_at?: string;
}

export function ProjectsSettings({ project }: { project: string }) {
  const me = useMe();
  const updateMe = useUpdateMe();
  // The organization the user is in now (it may not be their first: /api/projects/ lists that one).
  const collection = `/api/organizations/${me.organization?.id ?? '@current'}/projects/`;
  const projects = useLoad<{ results: ProjectRow[] }>(`${collection}?limit=1000`);
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [deleting, setDeleting] = useState<ProjectRow | null>(null);

  /** The user (and the shell's switcher) after a change of projects. */
  const refreshMe = async () => {
    const fresh = await api<Me>('/api/users/@me/');
    updateMe(() => fresh);
    return fresh;
  };
  const switchTo = async (id: number) => {
    setError(null);
    try {
      await api('/api/users/@me/', { method: 'PATCH', body: { set_current_team: id } });
      await refreshMe();
      navigate(`/project/${id}/insights`);
    } catch (e) {
      setError(message(e));
    }
  };
  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const made = await api<ProjectRow>(collection, { method: 'POST', body: { name: name.trim() } });
      setName('');
      projects.reload();
      await refreshMe();
      await switchTo(made.id);
    } catch (err) {
      setError(message(err));
    }
  };
  const remove = async (p: ProjectRow) => {
    setError(null);
    try {
      await api(`/api/projects/${p.id}/`, { method: 'DELETE' });
      setDeleting(null);
      projects.reload();
      const fresh = await refreshMe();
      if (String(p.id) === project) navigate(fresh.team ? `/project/${fresh.team.id}/settings/projects` : '/', true);
    } catch (err) {
      setError(message(err));
    }
  };

  return (
    <section class="stack" data-testid="projects-settings">
      <div class="page-head"><h1>Projects of {me.organization?.name ?? 'the organization'}</h1></div>
      <form class="card inline" aria-label="Create a project" onSubmit={create}>
        <input name="new-project-name" aria-label="New project name" placeholder="Project name" required maxLength={200} value={name} onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
        <button type="submit" class="primary">Create project</button>
      </form>
      {(projects.error || error) && <p class="error" role="alert">{projects.error ?? error}</p>}
      <table class="list-table" data-testid="projects-table" aria-busy={!projects.data}>
        <thead><tr><th>Name</th><th>Id</th><th /></tr></thead>
        <tbody>
          {projects.data?.results.map((p) => (
            <tr data-testid="project-row" data-name={p.name}>
              <td>{p.name}{String(p.id) === project && <span class="tag">current</span>}</td>
              <td class="mono">{p.id}</td>
              <td class="inline">
                {String(p.id) !== project && <button type="button" onClick={() => switchTo(p.id)}>Switch to</button>}
                <button type="button" class="danger" onClick={() => setDeleting(p)}>Delete</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deleting && <DeleteProject project={deleting} onDelete={() => remove(deleting)} onCancel={() => setDeleting(null)} />}
    </section>
  );
}

/** Deleting takes the project's events with it: the name must be typed to go ahead. */
function DeleteProject({ project, onDelete, onCancel }: { project: ProjectRow; onDelete: () => void; onCancel: () => void }) {
  const [typed, setTyped] = useState('');
  return (
    <div class="card stack warn" role="alertdialog" aria-label={`Delete ${project.name}`} data-testid="delete-project">
      <strong>Delete "{project.name}" with all its events, insights, dashboards, cohorts and flags? This cannot be undone.</strong>
      <label>
        Type the project's name to confirm
        <input name="confirm-project-name" value={typed} onInput={(e) => setTyped((e.currentTarget as HTMLInputElement).value)} />
      </label>
      <div class="inline">
        <button type="button" class="danger" disabled={typed !== project.name} onClick={onDelete}>Delete project</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </div>
  );
}
