// A payload's JSON text, checked as it is typed: the parser's complaint shows under the box and
// keeps Save disabled (PostHog stores payloads as JSON strings and refuses anything else).
import { payloadProblem } from '../../lib/flags';

export function PayloadField({ label, value, onChange }: { label: string; value: string; onChange: (text: string) => void }) {
  const problem = payloadProblem(value);
  return (
    <span class="payload-field">
      <textarea aria-label={label} aria-invalid={problem ? 'true' : undefined} rows={1} placeholder='{"key": "value"}' value={value}
        onInput={(e) => onChange((e.currentTarget as HTMLTextAreaElement).value)} />
      {problem && <span class="field-error" role="alert" data-testid="payload-error">{problem}</span>}
    </span>
  );
}
