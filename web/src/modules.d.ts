// Types for the map data packages, which ship none (or whose JSON this app reads untyped).
declare module 'topojson-client' {
  /** A TopoJSON object as GeoJSON (a FeatureCollection for a GeometryCollection). */
  export function feature(topology: unknown, object: unknown): { type: string; features: { id?: string; properties?: { name?: string }; geometry: { type: string; coordinates: any } | null }[] };
}
declare module 'world-atlas/countries-110m.json' {
  const topology: { objects: { countries: unknown } };
  export default topology;
}
declare module 'i18n-iso-countries/codes.json' {
  /** [alpha-2, alpha-3, numeric, ISO 3166-2 name] per country. */
  const codes: string[][];
  export default codes;
}
