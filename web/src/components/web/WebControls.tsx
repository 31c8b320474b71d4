// The Web analytics page's pickers beside the filter bar, as PostHog has them: a device-type toggle
// (All / Desktop / Mobile, Mobile meaning Mobile or Tablet), a domain picker (the project's $host
// values, from the events values endpoint) and a conversion goal (an action or a custom event).
import { api } from '../../api';
import { seriesOptions, valueOptions } from '../../lib/definitions';
import { useLoad } from '../../lib/useApi';
import type { ConversionGoal, DeviceType, WebState } from '../../lib/webAnalytics';
import { Combobox } from '../Combobox';

const DEVICES: [DeviceType | null, string][] = [[null, 'All devices'], ['Desktop', 'Desktop'], ['Mobile', 'Mobile']];

export function WebControls({ project, state, onChange }: { project: string; state: WebState; onChange: (change: Partial<WebState>) => void }) {
  const hosts = useLoad((signal) => valueOptions(project, 'event', '$host')('', signal), [project]);
  const actionId = state.goal && 'actionId' in state.goal ? state.goal.actionId : null;
  const action = useLoad(actionId === null ? null : (signal) => api<{ name: string }>(`/api/projects/${project}/actions/${actionId}/`, { signal }), [project, actionId]);
  const goalLabel = !state.goal ? '' : 'customEventName' in state.goal ? state.goal.customEventName : action.data?.name ?? `Action ${actionId}`;
  const setGoal = (goal: ConversionGoal | null) =>
    // PostHog shows the goal's unique conversions in the graph when a goal is picked.
    onChange({ goal, tabs: { ...state.tabs, graphs: goal ? 'UNIQUE_CONVERSIONS' : 'UNIQUE_USERS' } });

  return (
    <div class="filters web-pickers">
      <div class="web-toggle" role="group" aria-label="Device type">
        {DEVICES.map(([value, label]) => (
          <button type="button" aria-pressed={state.deviceType === value} onClick={() => onChange({ deviceType: value })}>{label}</button>
        ))}
      </div>
      <label class="inline">Domain
        <select name="domain" value={state.domain ?? ''} onChange={(e) => {
          const domain = (e.currentTarget as HTMLSelectElement).value || null;
          // The domain and a $host filter do not combine well: PostHog drops the filter.
          onChange({ domain, filters: domain ? state.filters.filter((f) => f.key !== '$host') : state.filters });
        }}>
          <option value="">All domains</option>
          {state.domain && !(hosts.data ?? []).some((h) => h.value === state.domain) && <option value={state.domain}>{state.domain}</option>}
          {(hosts.data ?? []).map((h) => <option value={h.value}>{h.label}</option>)}
        </select>
      </label>
      <span class="web-goal">
        <span aria-hidden="true">Goal</span>
        <Combobox label="Conversion goal" name="conversion-goal" value={goalLabel} placeholder="Add a conversion goal" load={seriesOptions(project, false)}
          onPick={(option) => {
            const [type, ...rest] = option.value.split(':');
            const id = rest.join(':');
            if (type === 'action' && Number.isInteger(Number(id))) setGoal({ actionId: Number(id) });
            else if (type === 'event' && id) setGoal({ customEventName: id });
          }} />
        {state.goal && <button type="button" class="link-button" onClick={() => setGoal(null)}>Clear goal</button>}
      </span>
    </div>
  );
}
