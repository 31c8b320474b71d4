// A multivariate flag's variants: key, description, share of the rollout and payload each. The
// shares must add up to 100 (PostHog refuses anything else); the sum is shown as it changes.
import { distributeEqually, variantSum, type Variant } from '../../lib/flags';
import { PayloadField } from './PayloadField';

export interface VariantDraft {
  variant: Variant;
  payload: string;
}

export function VariantsEditor({ rows, onChange }: { rows: VariantDraft[]; onChange: (next: VariantDraft[]) => void }) {
  const sum = variantSum(rows.map((r) => r.variant));
  const set = (i: number, change: Partial<Variant>) =>
    onChange(rows.map((r, k) => (k === i ? { ...r, variant: { ...r.variant, ...change } } : r)));
  const setPayload = (i: number, payload: string) => onChange(rows.map((r, k) => (k === i ? { ...r, payload } : r)));
  const distribute = () => {
    const shared = distributeEqually(rows.map((r) => r.variant));
    onChange(rows.map((r, i) => ({ ...r, variant: shared[i]! })));
  };
  const add = () => onChange([...rows, { variant: { key: '', name: '', rollout_percentage: 0 }, payload: '' }]);
  return (
    <div class="variants" data-testid="variants">
      <table class="list-table variants-table">
        <thead><tr><th scope="col">Variant key</th><th scope="col">Description</th><th scope="col">Payload (JSON)</th><th scope="col">Rollout</th><th /></tr></thead>
        <tbody>
          {rows.map((r, i) => (
            <tr data-testid="variant-row">
              <td><input aria-label={`Variant ${i + 1} key`} placeholder="e.g. test" value={r.variant.key} onInput={(e) => set(i, { key: (e.currentTarget as HTMLInputElement).value })} /></td>
              <td><input aria-label={`Variant ${i + 1} description`} placeholder="optional" value={r.variant.name ?? ''} onInput={(e) => set(i, { name: (e.currentTarget as HTMLInputElement).value })} /></td>
              <td><PayloadField label={`Variant ${i + 1} payload`} value={r.payload} onChange={(text) => setPayload(i, text)} /></td>
              <td class="nowrap">
                <input type="number" min="0" max="100" step="1" class="pct-input" aria-label={`Variant ${i + 1} rollout`} value={r.variant.rollout_percentage}
                  onInput={(e) => set(i, { rollout_percentage: Number((e.currentTarget as HTMLInputElement).value) || 0 })} /> %
              </td>
              <td>{rows.length > 1 && <button type="button" class="icon-button" aria-label={`Remove variant ${i + 1}`} onClick={() => onChange(rows.filter((_, k) => k !== i))}>✕</button>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="inline variants-foot">
        <button type="button" class="link-button" onClick={add}>+ Add variant</button>
        <button type="button" onClick={distribute}>Distribute equally</button>
        <span class="spacer" />
        <span data-testid="variant-sum" data-value={sum} class={sum === 100 ? 'sum ok' : 'sum bad'} role="status">
          Total: {sum}%{sum === 100 ? '' : ' — the rollout percentages must add up to 100%'}
        </span>
      </div>
    </div>
  );
}
