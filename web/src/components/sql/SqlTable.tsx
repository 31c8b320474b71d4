// A HogQL answer as a table: each column's name and type, the row count, and one page of rows at
// a time so a 50,000-row answer never becomes 50,000 DOM rows. Cells carry the raw value in
// data-value (what a test compares with the API's answer).
import { useEffect, useState } from 'preact/hooks';
import { cellText, isNumericType, type SqlResult } from '../../lib/sql';
import './sql.css';

export function SqlTable({ result, pageSize = 100 }: { result: SqlResult; pageSize?: number }) {
  const [page, setPage] = useState(0);
  useEffect(() => setPage(0), [result]);
  const pages = Math.max(1, Math.ceil(result.results.length / pageSize));
  const rows = result.results.slice(page * pageSize, (page + 1) * pageSize);
  const count = result.results.length;
  return (
    <div class="sql-table">
      <p class="muted sql-count" data-testid="sql-row-count" data-value={String(count)}>
        {count} {count === 1 ? 'row' : 'rows'}{result.hasMore ? ' (more rows exist: add a LIMIT or narrow the query to see them)' : ''}
      </p>
      <div class="table-scroll">
        <table class="data-table" data-testid="sql-table">
          <thead>
            <tr>
              {result.columns.map((name, i) => (
                <th scope="col" data-type={result.types[i]}>
                  {name}
                  {result.types[i] && <span class="sql-type">{result.types[i]}</span>}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr>
                {result.columns.map((_, c) => {
                  const value = row[c];
                  const text = cellText(value);
                  return <td class={isNumericType(result.types[c] ?? '') ? 'num' : undefined} data-value={text}>{text}</td>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 && (
        <p class="sql-pager">
          <button type="button" onClick={() => setPage(page - 1)} disabled={page === 0}>Previous</button>
          <span class="muted">Rows {page * pageSize + 1}–{Math.min(count, (page + 1) * pageSize)} of {count}</span>
          <button type="button" onClick={() => setPage(page + 1)} disabled={page >= pages - 1}>Next</button>
        </p>
      )}
    </div>
  );
}
