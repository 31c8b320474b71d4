// A flag's settings, read-only: status, switches, who it matches, each condition set in words with
// its rollout and override, the variants with their shares, and the payloads.
import { describeProperty, payloadText, targetName, type FeatureFlag, type GroupType } from '../../lib/flags';

export function StatusBadge({ flag }: { flag: Pick<FeatureFlag, 'active' | 'deleted'> }) {
  const status = flag.deleted ? 'deleted' : flag.active ? 'active' : 'inactive';
  return <span class={`status-badge ${status}`} data-testid="flag-status" data-status={status}>{status === 'active' ? 'Active' : status === 'inactive' ? 'Inactive' : 'Deleted'}</span>;
}

export function FlagSettings({ flag, groupTypes, cohortName }: { flag: FeatureFlag; groupTypes: GroupType[]; cohortName: (id: string) => string | undefined }) {
  const filters = flag.filters ?? {};
  const who = targetName(filters.aggregation_group_type_index ?? null, groupTypes);
  const variants = filters.multivariate?.variants ?? [];
  const payloads = filters.payloads ?? {};
  return (
    <div class="flag-settings stack" data-testid="flag-settings">
      <dl class="facts">
        <dt>Status</dt><dd><StatusBadge flag={flag} /></dd>
        <dt>Match by</dt><dd data-testid="flag-match-by">{who}</dd>
        <dt>Persist across authentication</dt><dd data-testid="flag-continuity">{flag.ensure_experience_continuity ? 'Yes' : 'No'}</dd>
        <dt>Type</dt><dd data-testid="flag-type">{variants.length > 0 ? `Multivariate (${variants.length} variants)` : 'Boolean'}</dd>
        {variants.length === 0 && <><dt>Payload</dt><dd><code data-testid="flag-payload-true">{payloadText(payloads['true']) || '—'}</code></dd></>}
      </dl>
      {variants.length > 0 && (
        <table class="list-table" data-testid="flag-variants">
          <thead><tr><th scope="col">Variant</th><th scope="col">Description</th><th scope="col">Rollout</th><th scope="col">Payload</th></tr></thead>
          <tbody>
            {variants.map((v) => (
              <tr data-key={v.key}>
                <td><code>{v.key}</code></td>
                <td>{v.name || <span class="muted">—</span>}</td>
                <td data-value={v.rollout_percentage}>{v.rollout_percentage}%</td>
                <td><code>{payloadText(payloads[v.key]) || '—'}</code></td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>Release conditions</h2>
      <ol class="condition-list" data-testid="flag-conditions">
        {(filters.groups ?? []).map((set) => (
          <li>
            <span>{(set.properties ?? []).length === 0 ? `All ${who}` : (set.properties ?? []).map((p) => describeProperty(p, cohortName)).join(' and ')}</span>
            <span class="muted"> · rolled out to {set.rollout_percentage ?? 100}%</span>
            {set.variant && <span class="muted"> · variant {set.variant}</span>}
          </li>
        ))}
      </ol>
    </div>
  );
}
