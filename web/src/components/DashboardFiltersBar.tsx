// The bar above a dashboard's tiles: a date range and property filters that apply to every tile,
// and, while they differ from what the dashboard stores, Save and Discard.
import { dateRangeProblem } from '../lib/builder';
import { DateRangePicker } from './DateRangePicker';
import { PropertyFilters } from './PropertyFilters';
import type { FiltersDraft } from '../lib/dashboardFilters';

export function DashboardFiltersBar({ project, draft, onChange, dirty, busy, onSave, onDiscard }: {
  project: string;
  draft: FiltersDraft;
  onChange: (next: FiltersDraft) => void;
  dirty: boolean;
  busy: boolean;
  onSave: () => void;
  onDiscard: () => void;
}) {
  return (
    <div class="card dashboard-filters" role="group" aria-label="Dashboard filters" data-testid="dashboard-filters">
      <div class="controls inline">
        <DateRangePicker
          name="dashboard-range"
          from={draft.date_from}
          to={draft.date_to}
          noneLabel="Each insight's own range"
          onChange={(date_from, date_to) => onChange({ ...draft, date_from, date_to })}
        />
        {dirty && (
          <span class="inline unsaved" data-testid="filters-unsaved">
            <span class="muted">Not saved: only you see these filters.</span>
            <button type="button" class="primary" disabled={busy || !!dateRangeProblem(draft.date_from, draft.date_to)} onClick={onSave}>Save</button>
            <button type="button" disabled={busy} onClick={onDiscard}>Discard</button>
          </span>
        )}
      </div>
      <PropertyFilters project={project} filters={draft.properties} onChange={(properties) => onChange({ ...draft, properties })} label="Dashboard property filters" />
    </div>
  );
}
