// Country outlines for the Web analytics map, loaded on demand (its own chunk): Natural Earth's
// 1:110m countries from world-atlas (ISC; the data is public domain), decoded by topojson-client,
// keyed by ISO 3166-1 alpha-2 through i18n-iso-countries' code table. Drawn equirectangular:
// x = longitude, y = -latitude, Antarctica left out.
import codes from 'i18n-iso-countries/codes.json';
import { feature } from 'topojson-client';
import world from 'world-atlas/countries-110m.json';

export interface CountryShape {
  /** Alpha-2 ("FR"), or the map's own name where Natural Earth has no ISO code (Kosovo...). */
  code: string;
  name: string;
  d: string;
}

export const WIDTH = 1000;
const NORTH = 84;
const SOUTH = -58;
export const HEIGHT = Math.round(((NORTH - SOUTH) / 360) * WIDTH);

const x = (lon: number) => Math.round(((lon + 180) / 360) * WIDTH * 10) / 10;
const y = (lat: number) => Math.round(((NORTH - lat) / 360) * WIDTH * 10) / 10;

/** Longitudes made continuous across the antimeridian, then moved back to the side holding most of the ring. */
function unwrap(ring: [number, number][]): [number, number][] {
  let shift = 0;
  const out = ring.map(([lon, lat], i) => {
    if (i > 0) {
      const before = ring[i - 1]![0];
      if (lon - before > 180) shift -= 360;
      else if (before - lon > 180) shift += 360;
    }
    return [lon + shift, lat] as [number, number];
  });
  const mean = out.reduce((s, [lon]) => s + lon, 0) / out.length;
  const back = mean > 180 ? -360 : mean < -180 ? 360 : 0;
  return back ? out.map(([lon, lat]) => [lon + back, lat]) : out;
}

const ringPath = (ring: [number, number][]) => `M${unwrap(ring).map(([lon, lat]) => `${x(lon)},${y(lat)}`).join('L')}Z`;

let shapes: CountryShape[] | null = null;

export function countryShapes(): CountryShape[] {
  if (shapes) return shapes;
  const byNumeric = new Map(codes.map((row) => [row[2], row[0]!]));
  const collection = feature(world, world.objects.countries);
  shapes = collection.features.flatMap((f) => {
    const code = (f.id && byNumeric.get(f.id)) || f.properties?.name || '';
    if (!f.geometry || code === 'AQ') return [];
    const polygons: [number, number][][][] = f.geometry.type === 'Polygon' ? [f.geometry.coordinates] : f.geometry.coordinates;
    return [{ code, name: f.properties?.name ?? code, d: polygons.flatMap((rings) => rings.map(ringPath)).join('') }];
  });
  return shapes;
}
