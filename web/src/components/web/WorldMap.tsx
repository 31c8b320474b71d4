// A choropleth of visitors per country ($geoip_country_code), drawn as SVG from the lazily loaded
// outlines: the more visitors, the deeper the blue. Clicking a country filters the page by it.
import { useEffect, useState } from 'preact/hooks';
import { num } from '../../lib/format';
import { countryName } from '../charts/worldmap';
import type { CountryShape } from './worldShapes';

type Loaded = { shapes: CountryShape[]; width: number; height: number };
let loading: Promise<Loaded> | null = null;

function loadShapes(): Promise<Loaded> {
  loading ??= import('./worldShapes').then((m) => ({ shapes: m.countryShapes(), width: m.WIDTH, height: m.HEIGHT }));
  return loading;
}

/** Blue of the given strength (0..1) over a light grey for none. */
function fill(share: number): string {
  if (share <= 0) return '#e5e7eb';
  const mix = (a: number, b: number) => Math.round(a + (b - a) * (0.15 + 0.85 * share));
  return `rgb(${mix(219, 29)}, ${mix(228, 74)}, ${mix(255, 255)})`;
}

export function WorldMap({ visitors, onPick }: { visitors: Map<string, number>; onPick?: (code: string) => void }) {
  const [map, setMap] = useState<Loaded | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => { loadShapes().then(setMap, (e) => setError(String(e))); }, []);
  if (error) return <p class="error">The map could not be loaded: {error}</p>;
  if (!map) return <p class="muted">Loading the map…</p>;
  const top = Math.max(0, ...visitors.values());
  return (
    <svg class="web-world-map" viewBox={`0 0 ${map.width} ${map.height}`} role="img" aria-label="Visitors by country" data-testid="web-world-map">
      {map.shapes.map((shape) => {
        const count = visitors.get(shape.code) ?? 0;
        const name = /^[A-Z]{2}$/.test(shape.code) ? countryName(shape.code) : shape.name;
        return (
          <path
            key={shape.code}
            d={shape.d}
            fill={fill(top > 0 ? count / top : 0)}
            data-code={shape.code}
            data-value={count > 0 ? String(count) : undefined}
            class={onPick && count > 0 ? 'clickable' : undefined}
            onClick={onPick && count > 0 ? () => onPick(shape.code) : undefined}
          >
            <title>{`${name}: ${num(count)} visitor${count === 1 ? '' : 's'}`}</title>
          </path>
        );
      })}
    </svg>
  );
}
