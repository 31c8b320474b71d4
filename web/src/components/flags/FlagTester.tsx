// "Test this flag": asks /flags/?v=2 exactly as an SDK would (the project's token, a distinct id,
// optional person properties) and shows this flag's answer: on or off, variant, reason, payload.
import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api';
import { evaluateFlags, type FlagAnswer } from '../../lib/flags';

type Outcome = { answer: FlagAnswer | null } | { error: string };

export function FlagTester({ project, flagKey, active, groupType }: {
  project: string;
  flagKey: string;
  active: boolean;
  /** A group flag's group type name: the request names the group (`groups`), as SDKs send it. */
  groupType: string | null;
}) {
  const [distinctId, setDistinctId] = useState('');
  const [groupKey, setGroupKey] = useState('');
  const [props, setProps] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [busy, setBusy] = useState(false);
  let propsProblem: string | null = null;
  let parsed: Record<string, unknown> | null = null;
  if (props.trim()) {
    try {
      const value = JSON.parse(props);
      if (value && typeof value === 'object' && !Array.isArray(value)) parsed = value;
      else propsProblem = 'Person properties must be a JSON object.';
    } catch (e) {
      propsProblem = `Invalid JSON: ${(e as Error).message}`;
    }
  }
  const run = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const project_ = await api<{ api_token: string }>(`/api/projects/${project}/`);
      const groups = groupType && groupKey.trim() ? { [groupType]: groupKey.trim() } : null;
      const flags = await evaluateFlags(project_.api_token, distinctId.trim(), parsed, groups);
      setOutcome({ answer: flags[flagKey] ?? null });
    } catch (err) {
      setOutcome({ error: err instanceof ApiError ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card stack flag-tester" aria-label="Test this flag">
      <h2>Test this flag</h2>
      <form class="inline" onSubmit={run}>
        <input aria-label="Distinct ID" placeholder="distinct id, e.g. user@example.com" value={distinctId} required onInput={(e) => setDistinctId((e.currentTarget as HTMLInputElement).value)} />
        {groupType && <input aria-label={`Group key (${groupType})`} placeholder={`${groupType} key`} value={groupKey} onInput={(e) => setGroupKey((e.currentTarget as HTMLInputElement).value)} />}
        <textarea aria-label="Person properties (JSON)" rows={1} placeholder='optional: {"plan": "pro"}' value={props} onInput={(e) => setProps((e.currentTarget as HTMLTextAreaElement).value)} />
        <button type="submit" disabled={busy || !distinctId.trim() || propsProblem !== null}>Test</button>
      </form>
      {propsProblem && <span class="field-error" role="alert">{propsProblem}</span>}
      {outcome && 'error' in outcome && <p class="error" role="alert">{outcome.error}</p>}
      {outcome && 'answer' in outcome && (outcome.answer === null ? (
        <p class="muted" data-testid="test-result" data-enabled="absent">
          {active ? 'The answer did not include this flag.' : 'Inactive flags are left out of /flags answers: SDKs read them as undefined.'}
        </p>
      ) : (
        <dl class="facts" data-testid="test-result" data-enabled={String(outcome.answer.enabled)}>
          <dt>Value</dt><dd data-testid="test-enabled" class={outcome.answer.enabled ? 'on' : 'off'}>{outcome.answer.enabled ? 'Enabled (true)' : 'Disabled (false)'}</dd>
          <dt>Variant</dt><dd data-testid="test-variant">{outcome.answer.variant ?? '—'}</dd>
          <dt>Reason</dt><dd data-testid="test-reason" data-code={outcome.answer.reason?.code}>{outcome.answer.reason?.description ?? '—'}</dd>
          <dt>Payload</dt><dd><code data-testid="test-payload">{outcome.answer.metadata?.payload ?? '—'}</code></dd>
        </dl>
      ))}
    </section>
  );
}
