// A table of people (name linking to their page, id, first seen), as the People and cohort pages show them.
import { ago, when } from '../lib/format';
import { onLinkClick } from '../router';

export interface PeopleRow {
  id: string;
  name: string;
  created_at: string;
}

export function PeopleTable({ project, rows, loading, testId, extra }: { project: string; rows: PeopleRow[]; loading: boolean; testId: string; extra?: Record<string, string> }) {
  return (
    <table class="list-table" data-testid={testId} aria-busy={loading} data-state={loading ? 'loading' : 'ready'} {...extra}>
      <thead><tr><th scope="col">Person</th><th scope="col">ID</th><th scope="col">First seen</th></tr></thead>
      <tbody>
        {rows.map((p) => (
          <tr data-id={p.id}>
            <td><a href={`/project/${project}/person/${p.id}`} onClick={onLinkClick}>{p.name}</a></td>
            <td class="muted mono">{p.id}</td>
            <td title={when(p.created_at)}>{ago(p.created_at)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
