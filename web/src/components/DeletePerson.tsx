// A person page's "Delete person": PostHog's DELETE …/persons/:id/ (with ?delete_events=true when
// the box is ticked). The person leaves every list and insight at once; the page goes back to People.
import { useState } from 'preact/hooks';
import { api } from '../api';
import { navigate } from '../router';
import { ConfirmDelete } from './dashboard/ConfirmDelete';

export function DeletePerson({ project, id, name }: { project: string; id: string; name: string }) {
  const [open, setOpen] = useState(false);
  const [withEvents, setWithEvents] = useState(true);
  const remove = async () => {
    await api(`/api/projects/${project}/persons/${encodeURIComponent(id)}/${withEvents ? '?delete_events=true' : ''}`, { method: 'DELETE' });
    navigate(`/project/${project}/persons`);
  };
  return (
    <div class="inline">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>Delete person</button>
      {open && (
        <ConfirmDelete what="person" name={name} detail="All their distinct ids go too. This cannot be undone." button="Delete"
          testId="delete-person" onConfirm={remove} onClose={() => setOpen(false)}>
          <label class="inline">
            <input type="checkbox" checked={withEvents} onChange={(e) => setWithEvents((e.target as HTMLInputElement).checked)} />
            Also delete their events
          </label>
        </ConfirmDelete>
      )}
    </div>
  );
}
