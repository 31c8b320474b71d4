// Project settings' "Session replay" card: whether posthog-js records sessions, and how (sample
// rate, minimum duration, console logs, network headers and bodies), saved with PATCH on the
// project; the SDK's remote config follows at once. Also how long recordings are kept (retention).
import { useState } from 'preact/hooks';
import { ApiError } from '../../api';

export interface ReplayFields {
  session_recording_opt_in: boolean;
  session_recording_sample_rate: string | null;
  session_recording_minimum_duration_milliseconds: number | null;
  capture_console_log_opt_in: boolean | null;
  session_recording_network_payload_capture_config: { recordHeaders?: boolean; recordBody?: boolean } | null;
  session_recording_retention_period?: string | null;
}

/** PostHog's choices for the sample rate and minimum duration. */
const SAMPLE_RATES = ['1.00', '0.95', '0.90', '0.80', '0.70', '0.60', '0.50', '0.40', '0.30', '0.20', '0.10', '0.05', '0.01', '0.00'];
const MINIMUM_DURATIONS = [0, 1000, 2000, 5000, 10000, 15000, 30000];
/** PostHog's retention periods; older recordings are removed by the recordings' retention job. */
const RETENTION_PERIODS: [string, string][] = [['30d', '30 days'], ['90d', '90 days'], ['1y', '1 year'], ['5y', '5 years']];

const percent = (rate: string) => `${Math.round(Number(rate) * 100)}%`;
const seconds = (ms: number) => (ms === 0 ? 'None' : `${ms / 1000} s`);

export function SessionReplaySettings({ project, save }: { project: ReplayFields; save: (body: Partial<ReplayFields>) => Promise<void> }) {
  const network = project.session_recording_network_payload_capture_config;
  const [on, setOn] = useState(project.session_recording_opt_in);
  const [rate, setRate] = useState(project.session_recording_sample_rate ?? '1.00');
  const [minimum, setMinimum] = useState(project.session_recording_minimum_duration_milliseconds ?? 0);
  const [consoleLogs, setConsoleLogs] = useState(project.capture_console_log_opt_in === true);
  const [headers, setHeaders] = useState(network?.recordHeaders === true);
  const [bodies, setBodies] = useState(network?.recordBody === true);
  const [retention, setRetention] = useState(project.session_recording_retention_period ?? '30d');
  const [state, setState] = useState<{ busy: boolean; note: string | null; error: string | null }>({ busy: false, note: null, error: null });

  const submit = async (e: Event) => {
    e.preventDefault();
    setState({ busy: true, note: null, error: null });
    try {
      await save({
        session_recording_opt_in: on,
        session_recording_sample_rate: rate,
        session_recording_minimum_duration_milliseconds: minimum,
        capture_console_log_opt_in: consoleLogs,
        // Off stays null, as PostHog stores it.
        session_recording_network_payload_capture_config: headers || bodies ? { recordHeaders: headers, recordBody: bodies } : null,
        session_recording_retention_period: retention,
      });
      setState({ busy: false, note: 'Saved.', error: null });
    } catch (err) {
      setState({ busy: false, note: null, error: err instanceof ApiError ? err.message : String(err) });
    }
  };
  const check = (label: string, name: string, value: boolean, set: (v: boolean) => void, disabled = false) => (
    <label class="check">
      <input type="checkbox" name={name} checked={value} disabled={disabled} onChange={(e) => set((e.currentTarget as HTMLInputElement).checked)} />
      <span>{label}</span>
    </label>
  );
  return (
    <form class="card settings-section stack" aria-label="Session replay" data-testid="settings-session-replay" onSubmit={submit}>
      <h2>Session replay</h2>
      <p class="muted">posthog-js records what visitors see and do and sends it to /s/, with no change to your code.</p>
      {check('Record user sessions', 'session-recording-opt-in', on, setOn)}
      <label class="check">
        <span>Sample rate</span>
        <select name="session-recording-sample-rate" aria-label="Sample rate" value={rate} disabled={!on} onChange={(e) => setRate((e.currentTarget as HTMLSelectElement).value)}>
          {SAMPLE_RATES.map((r) => <option value={r}>{percent(r)}</option>)}
        </select>
      </label>
      <label class="check">
        <span>Minimum duration</span>
        <select name="session-recording-minimum-duration" aria-label="Minimum duration" value={String(minimum)} disabled={!on} onChange={(e) => setMinimum(Number((e.currentTarget as HTMLSelectElement).value))}>
          {MINIMUM_DURATIONS.map((ms) => <option value={String(ms)}>{seconds(ms)}</option>)}
        </select>
      </label>
      {check('Capture console logs', 'capture-console-logs', consoleLogs, setConsoleLogs, !on)}
      {check('Capture network headers', 'capture-network-headers', headers, setHeaders, !on)}
      {check('Capture network bodies', 'capture-network-bodies', bodies, setBodies, !on)}
      <label class="check">
        <span>Keep recordings for</span>
        <select name="session-recording-retention-period" aria-label="Keep recordings for" value={retention} onChange={(e) => setRetention((e.currentTarget as HTMLSelectElement).value)}>
          {RETENTION_PERIODS.map(([value, label]) => <option value={value}>{label}</option>)}
        </select>
      </label>
      <div class="inline">
        <button type="submit" class="primary" disabled={state.busy}>{state.busy ? 'Saving…' : 'Save'}</button>
        {state.note && <span class="muted" role="status">{state.note}</span>}
      </div>
      {state.error && <p class="error" role="alert">{state.error}</p>}
    </form>
  );
}
