// The world map display as far as the data allows, without shipping map geometry: countries
// ranked by the first series' total, each with its name, flag and a bar in proportion.
import { breakdownLabel, num } from '../../lib/format';
import type { SeriesItem } from './series';
import { GeoIpCredit } from '../GeoIpCredit';

const NULL_VALUE = '$$_posthog_breakdown_null_$$';
let regionNames: Intl.DisplayNames | null | undefined;

/** "France" for "FR"; the code itself when the browser does not know it (or it is no code). */
export function countryName(code: string): string {
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(['en'], { type: 'region' });
    } catch {
      regionNames = null;
    }
  }
  if (!/^[A-Za-z]{2}$/.test(code) || !regionNames) return code;
  try {
    return regionNames.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** A flag from the two letters' regional indicator symbols ("" for anything else). */
export function flagOf(code: string): string {
  if (!/^[A-Za-z]{2}$/.test(code)) return '';
  return String.fromCodePoint(...[...code.toUpperCase()].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}

export function WorldMapTable({ items, onPick }: { items: SeriesItem[]; onPick?: (index: number) => void }) {
  // PostHog's map shows the first series; breakdown items of other series are left out.
  const order = items[0]?.action?.order;
  const rows = items
    .map((item, index) => ({ item, index, value: item.aggregated_value ?? item.count ?? 0 }))
    .filter(({ item }) => item.action?.order === order)
    .sort((a, b) => b.value - a.value);
  const top = Math.max(1, ...rows.map((r) => r.value));
  return (
    <div class="world-map">
      <table class="data-table country-table" data-testid="world-map">
        <caption class="sr-only">Countries by count</caption>
        <thead><tr><th scope="col">Country</th><th scope="col" class="bar-col">Share</th><th scope="col">Count</th></tr></thead>
        <tbody>
          {rows.map(({ item, index, value }) => {
            const raw = item.breakdown_value;
            const code = typeof raw === 'string' && raw !== NULL_VALUE ? raw : '';
            const name = code ? countryName(code) : raw === NULL_VALUE || raw === null ? 'No country sent' : breakdownLabel(raw);
            return (
              <tr
                key={String(raw)}
                data-key={code || 'none'}
                class={onPick ? 'clickable' : undefined}
                tabIndex={onPick ? 0 : undefined}
                onClick={onPick ? () => onPick(index) : undefined}
                onKeyDown={onPick ? (e) => { if (e.key === 'Enter') onPick(index); } : undefined}
              >
                <th scope="row"><span class="flag" aria-hidden="true">{flagOf(code)}</span> {name}{code && name !== code ? <span class="muted"> {code.toUpperCase()}</span> : null}</th>
                <td class="bar-col"><span class="bar" style={{ width: `${(value / top) * 100}%` }} /></td>
                <td class="num" data-value={String(value)}>{num(value)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <GeoIpCredit />
    </div>
  );
}
