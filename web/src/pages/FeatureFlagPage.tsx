// One flag: its settings read-only (with Edit and Delete), its usage chart and a box that asks
// /flags/ for a distinct id.
import { useState } from 'preact/hooks';
import { ApiError } from '../api';
import { FlagSettings, StatusBadge } from '../components/flags/FlagSettings';
import { FlagTester } from '../components/flags/FlagTester';
import { FlagUsage } from '../components/flags/FlagUsage';
import { cohortOptions, deleteFlag, getFlag, loadGroupTypes, rolloutSummary } from '../lib/flags';
import { useLoad } from '../lib/useApi';
import { navigate, onLinkClick } from '../router';

export function FeatureFlagPage({ project, id }: { project: string; id: string }) {
  const flag = useLoad((signal) => getFlag(project, id, signal), [project, id]);
  const groupTypes = useLoad((signal) => loadGroupTypes(project, signal), [project]);
  const cohorts = useLoad((signal) => cohortOptions(project)('', signal), [project]);
  const cohortName = (cohort: string) => cohorts.data?.find((c) => c.value === cohort)?.label;
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const f = flag.data;
  const groupIndex = f?.filters?.aggregation_group_type_index ?? null;
  const groupTypeName = groupIndex === null ? null : groupTypes.data?.find((g) => g.group_type_index === groupIndex)?.group_type ?? null;

  const remove = async () => {
    if (!f) return;
    setProblem(null);
    try {
      await deleteFlag(project, f.id);
      navigate(`/project/${project}/feature_flags`);
    } catch (e) {
      setProblem(e instanceof ApiError ? e.message : String(e));
      setConfirming(false);
    }
  };

  return (
    <section class={`flag-page${f && !f.active ? ' inactive' : ''}`}>
      <p class="crumbs"><a href={`/project/${project}/feature_flags`} onClick={onLinkClick}>Feature flags</a></p>
      {flag.error && <p class="error" role="alert">{flag.error}</p>}
      {f && (
        <>
          <div class="page-head">
            <div>
              <h1 class="mono" data-testid="flag-key">{f.key} <StatusBadge flag={f} /></h1>
              {f.name && <p class="muted" data-testid="flag-description">{f.name}</p>}
              <p data-testid="flag-rollout">{rolloutSummary(f.filters ?? {}, groupTypes.data ?? [])}</p>
            </div>
            {!f.deleted && (
              <div class="head-actions">
                <a class="button" href={`/project/${project}/feature_flags/${f.id}/edit`} onClick={onLinkClick}>Edit</a>
                {confirming ? (
                  <span class="inline confirm" role="group" aria-label="Confirm delete">
                    <span>Delete flag "{f.key}"? SDKs will stop receiving it.</span>
                    <button type="button" class="danger" onClick={remove}>Yes, delete</button>
                    <button type="button" onClick={() => setConfirming(false)}>Cancel</button>
                  </span>
                ) : (
                  <button type="button" onClick={() => setConfirming(true)}>Delete</button>
                )}
              </div>
            )}
          </div>
          {!f.active && !f.deleted && <p class="warn" data-testid="inactive-note">This flag is inactive: every SDK reads it as off (and /flags leaves it out).</p>}
          {problem && <p class="error" role="alert">{problem}</p>}
          <div class="flag-grid">
            <section class="card"><FlagSettings flag={f} groupTypes={groupTypes.data ?? []} cohortName={cohortName} /></section>
            <FlagTester project={project} flagKey={f.key} active={f.active} groupType={groupTypeName} />
          </div>
          <FlagUsage project={project} flagKey={f.key} />
        </>
      )}
    </section>
  );
}
