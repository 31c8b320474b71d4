// New feature flag (/feature_flags/new) or an edit of one (/feature_flags/:id/edit).
import { FlagForm } from '../components/flags/FlagForm';
import { getFlag } from '../lib/flags';
import { useLoad } from '../lib/useApi';
import { onLinkClick } from '../router';

export function FeatureFlagEditPage({ project, id }: { project: string; id?: string }) {
  const flag = useLoad(id ? (signal) => getFlag(project, id, signal) : null, [project, id]);
  return (
    <section class="flag-edit">
      <p class="crumbs"><a href={`/project/${project}/feature_flags`} onClick={onLinkClick}>Feature flags</a></p>
      <div class="page-head"><h1>{id ? `Edit ${flag.data?.key ?? 'feature flag'}` : 'New feature flag'}</h1></div>
      {flag.error && <p class="error" role="alert">{flag.error}</p>}
      {!id && <FlagForm project={project} flag={null} />}
      {id && flag.data && <FlagForm key={`${flag.data.id}-${flag.data.version ?? ''}`} project={project} flag={flag.data} />}
    </section>
  );
}
