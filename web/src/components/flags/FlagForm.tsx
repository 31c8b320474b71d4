// Create or edit a flag: key, description, switches, who it matches (persons or a group type),
// release condition sets, variants and payloads. A server 400 is shown next to the field its
// `attr` names; a 409 (someone saved a newer version) with PostHog's message.
import { useState } from 'preact/hooks';
import { ApiError } from '../../api';
import { cohortOptions, createFlag, keyProblem, loadGroupTypes, targetName, updateFlag, type FeatureFlag } from '../../lib/flags';
import { useLoad } from '../../lib/useApi';
import { navigate, onLinkClick } from '../../router';
import { ConditionSetEditor } from './ConditionSetEditor';
import { bodyOf, draftOf, draftProblem, type Draft } from './draft';
import { PayloadField } from './PayloadField';
import { VariantsEditor } from './VariantsEditor';

interface Failure {
  attr: string | null;
  message: string;
}

export function FlagForm({ project, flag }: { project: string; flag: FeatureFlag | null }) {
  const [d, setD] = useState<Draft>(() => draftOf(flag));
  const [failure, setFailure] = useState<Failure | null>(null);
  const [saving, setSaving] = useState(false);
  const groupTypes = useLoad((signal) => loadGroupTypes(project, signal), [project]);
  const cohorts = useLoad((signal) => cohortOptions(project)('', signal), [project]);
  const cohortName = (id: string) => cohorts.data?.find((c) => c.value === id)?.label;
  const change = (patch: Partial<Draft>) => setD((prev) => ({ ...prev, ...patch }));
  const problem = draftProblem(d);
  const types = groupTypes.data ?? [];
  const who = targetName(d.groupIndex, types);
  const variantKeys = d.multivariate ? d.variants.map((v) => v.variant.key).filter(Boolean) : [];

  const save = async (e: Event) => {
    e.preventDefault();
    if (problem) return;
    setSaving(true);
    setFailure(null);
    try {
      const saved = flag ? await updateFlag(project, flag.id, bodyOf(d, flag)) : await createFlag(project, bodyOf(d, null));
      navigate(`/project/${project}/feature_flags/${saved.id}`);
    } catch (err) {
      setFailure(err instanceof ApiError ? { attr: err.status === 400 ? err.attr : null, message: err.message } : { attr: null, message: String(err) });
      setSaving(false);
    }
  };
  const errorFor = (attr: string) => failure && failure.attr === attr
    ? <p class="error field-error" role="alert" data-testid="field-error" data-attr={attr}>{failure.message}</p>
    : null;
  const known = ['key', 'name', 'filters', 'active', 'ensure_experience_continuity'];
  const keyHint = d.key ? keyProblem(d.key) : null;

  const setMatchBy = (value: string) => {
    const groupIndex = value === '' ? null : Number(value);
    if (groupIndex === d.groupIndex) return;
    // Conditions of persons mean nothing for groups (and back): each set keeps only its rollout.
    change({ groupIndex, sets: d.sets.map((s) => ({ ...s, properties: [] })) });
  };

  return (
    <form class="flag-form stack" aria-label={flag ? 'Edit feature flag' : 'New feature flag'} onSubmit={save}>
      <section class="card stack">
        <label>
          Key
          <input name="key" aria-label="Key" class="mono" placeholder="e.g. new-checkout" value={d.key} autoComplete="off"
            onInput={(e) => change({ key: (e.currentTarget as HTMLInputElement).value })} />
          {keyHint && <span class="field-error" data-testid="key-hint">{keyHint}</span>}
          {flag && d.key !== flag.key && <span class="warn">Code reading the old key "{flag.key}" will stop seeing this flag.</span>}
        </label>
        {errorFor('key')}
        <label>
          Description
          <textarea name="name" aria-label="Description" rows={2} value={d.name} onInput={(e) => change({ name: (e.currentTarget as HTMLTextAreaElement).value })} />
        </label>
        {errorFor('name')}
        <label class="check">
          <input type="checkbox" name="active" checked={d.active} onChange={(e) => change({ active: (e.currentTarget as HTMLInputElement).checked })} />
          Enabled (active)
        </label>
        {errorFor('active')}
        <label class="check">
          <input type="checkbox" name="ensure_experience_continuity" checked={d.continuity} onChange={(e) => change({ continuity: (e.currentTarget as HTMLInputElement).checked })} />
          Persist flag across authentication steps
        </label>
        {errorFor('ensure_experience_continuity')}
      </section>

      <section class="card stack" aria-label="Served value">
        <h2>Served value</h2>
        <label class="check">
          <input type="checkbox" name="multivariate" checked={d.multivariate} onChange={(e) => change({ multivariate: (e.currentTarget as HTMLInputElement).checked })} />
          Multiple variants with rollout percentages (A/B/n test)
        </label>
        {d.multivariate
          ? <VariantsEditor rows={d.variants} onChange={(variants) => change({ variants })} />
          : <div class="payload-row"><span>Payload when the flag is on (optional JSON)</span><PayloadField label="Payload" value={d.truePayload} onChange={(truePayload) => change({ truePayload })} /></div>}
      </section>

      <section class="card stack" aria-label="Release conditions">
        <div class="inline">
          <h2>Release conditions</h2>
          <span class="spacer" />
          <label class="inline">
            Match by
            <select aria-label="Match by" value={d.groupIndex === null ? '' : String(d.groupIndex)} onChange={(e) => setMatchBy((e.currentTarget as HTMLSelectElement).value)}>
              <option value="">Users</option>
              {types.map((t) => <option value={String(t.group_type_index)}>{t.name_plural || t.group_type}</option>)}
              {d.groupIndex !== null && !types.some((t) => t.group_type_index === d.groupIndex) && <option value={String(d.groupIndex)}>Group type {d.groupIndex}</option>}
            </select>
          </label>
        </div>
        {errorFor('filters')}
        <p class="muted">Condition sets are checked in order; the first one that matches decides.</p>
        {d.sets.map((set, i) => (
          <ConditionSetEditor
            key={i}
            project={project}
            index={i}
            set={set}
            groupIndex={d.groupIndex}
            variantKeys={variantKeys}
            targetName={who}
            cohortName={cohortName}
            onChange={(next) => change({ sets: d.sets.map((s, k) => (k === i ? next : s)) })}
            onRemove={d.sets.length > 1 ? () => change({ sets: d.sets.filter((_, k) => k !== i) }) : null}
          />
        ))}
        <button type="button" class="link-button" onClick={() => change({ sets: [...d.sets, { properties: [], rollout_percentage: 100 }] })}>+ Add condition set</button>
      </section>

      {failure && (failure.attr === null || !known.includes(failure.attr)) && (
        <p class="error" role="alert" data-testid="save-error">{failure.message}{failure.attr ? ` (${failure.attr})` : ''}</p>
      )}
      <div class="inline form-actions">
        <button type="submit" class="primary" disabled={saving || problem !== null}>{flag ? 'Save' : 'Create flag'}</button>
        <a class="button" href={flag ? `/project/${project}/feature_flags/${flag.id}` : `/project/${project}/feature_flags`} onClick={onLinkClick}>Cancel</a>
        {problem && <span class="muted" data-testid="save-blocked">{problem}</span>}
      </div>
    </form>
  );
}
