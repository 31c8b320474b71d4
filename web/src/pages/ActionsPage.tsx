// Actions: the project's live actions with their steps in words, who made them and when; searched
// by name or description (as PostHog's list, on the page); deleted (soft) after a confirmation.
import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { SearchBox } from '../components/SearchBox';
import { deleteAction, listActions, stepSummary, type Action } from '../components/actions/steps';
import { ago, when } from '../lib/format';
import { useLoad } from '../lib/useApi';
import { onLinkClick } from '../router';

const matches = (action: Action, needle: string) =>
  !needle || action.name.toLowerCase().includes(needle) || action.description.toLowerCase().includes(needle);

export function ActionsPage({ project }: { project: string }) {
  const [search, setSearch] = useState('');
  const list = useLoad((signal) => listActions(project, signal), [project]);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const needle = search.trim().toLowerCase();
  const actions = (list.data?.results ?? []).filter((a) => matches(a, needle));

  const remove = async (action: Action) => {
    setError(null);
    try {
      await deleteAction(project, action.id);
      setConfirming(null);
      list.reload();
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };

  return (
    <section>
      <div class="page-head">
        <h1>Actions</h1>
        <a class="button primary" href={`/project/${project}/actions/new`} onClick={onLinkClick}>New action</a>
      </div>
      <SearchBox label="Search actions" placeholder="Search by name or description" value={search} onInput={setSearch} />
      {(list.error || error) && <p class="error" role="alert">{list.error ?? error}</p>}
      <table class="list-table" data-testid="actions-table" aria-busy={list.loading} data-state={list.loading ? 'loading' : 'ready'}>
        <thead><tr><th scope="col">Name</th><th scope="col">Description</th><th scope="col">Steps</th><th scope="col">Created by</th><th scope="col">Created</th><th scope="col"><span class="sr-only">Delete</span></th></tr></thead>
        <tbody>
          {actions.map((a) => (
            <tr data-id={a.id} data-name={a.name}>
              <td>
                <a href={`/project/${project}/actions/${a.id}`} onClick={onLinkClick}>{a.name}</a>
                {a.tags.length > 0 && <div>{a.tags.map((t) => <span class="tag">{t}</span>)}</div>}
              </td>
              <td class="muted ellipsis">{a.description}</td>
              <td data-testid="action-steps">{a.steps.map((s, i) => <div>{i > 0 && <span class="muted">or </span>}{stepSummary(s)}</div>)}</td>
              <td>{a.created_by ? a.created_by.first_name || a.created_by.email : '–'}</td>
              <td title={when(a.created_at)}>{ago(a.created_at)}</td>
              <td>
                {confirming === a.id
                  ? (
                    <span class="inline" role="group" aria-label={`Confirm delete ${a.name}`}>
                      <button type="button" class="danger" onClick={() => remove(a)}>Yes, delete</button>
                      <button type="button" onClick={() => setConfirming(null)}>Cancel</button>
                    </span>
                  )
                  : <button type="button" class="link-button" aria-label={`Delete ${a.name}`} onClick={() => setConfirming(a.id)}>Delete</button>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {!list.loading && actions.length === 0 && !list.error && <p class="empty">{needle ? 'No actions match.' : 'No actions yet. An action names the events that matter: a page view of a URL, a click on a button.'}</p>}
    </section>
  );
}
