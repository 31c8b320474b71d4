// A database record as the location keys PostHog's GeoIP transformation adds (`$geoip_<key>`).
// Two record layouts are read: MaxMind's GeoIP2/GeoLite2 (nested, English names inside) and the
// flat one of @ip-location-db's files (country code, region and city names, coordinates), whose
// missing names are derived: country from CLDR (Intl), continent from a country table, time zone
// from the coordinates. ISO subdivision codes cannot be derived reliably from DB-IP's region names
// (about three in four match any ISO 3166-2 list), so the flat layout leaves them out.
import tzLookup from '@photostructure/tz-lookup';
import { continents, countries } from 'countries-list';

/** Every key the transformation knows, in its order; the person gets null for those not found. */
export const GEOIP_KEYS = [
  'city_name',
  'city_confidence',
  'subdivision_2_name',
  'subdivision_2_code',
  'subdivision_1_name',
  'subdivision_1_code',
  'country_name',
  'country_code',
  'continent_name',
  'continent_code',
  'postal_code',
  'latitude',
  'longitude',
  'accuracy_radius',
  'time_zone',
] as const;

/** The keys a lookup found (absent: not found). */
export type GeoLocation = Record<string, string | number>;

type Json = Record<string, unknown>;

export function locationOf(record: Json): GeoLocation {
  const location: GeoLocation = {};
  const put = (key: string, value: unknown) => {
    if ((typeof value === 'string' && value !== '') || (typeof value === 'number' && Number.isFinite(value))) location[key] = value;
  };
  if (typeof record.country_code === 'string' || typeof record.state1 === 'string') readFlat(record, put);
  else readMaxMind(record, put);
  return location;
}

type Put = (key: string, value: unknown) => void;

/** MaxMind's layout: taken as it is (subdivisions numbered from 1, as PostHog does). */
function readMaxMind(record: Json, put: Put): void {
  const city = object(record.city);
  const country = object(record.country);
  const continent = object(record.continent);
  const at = object(record.location);
  put('city_name', englishName(city));
  put('country_name', englishName(country));
  put('country_code', country.iso_code);
  put('continent_name', englishName(continent));
  put('continent_code', continent.code);
  put('postal_code', object(record.postal).code);
  put('latitude', at.latitude);
  put('longitude', at.longitude);
  put('accuracy_radius', at.accuracy_radius);
  put('time_zone', at.time_zone);
  // Three at most: MaxMind's files hold two, and capture adds known keys only (enrich.ts).
  const subdivisions = Array.isArray(record.subdivisions) ? record.subdivisions.slice(0, 3) : [];
  subdivisions.forEach((entry, index) => {
    const subdivision = object(entry);
    put(`subdivision_${index + 1}_code`, subdivision.iso_code);
    put(`subdivision_${index + 1}_name`, englishName(subdivision));
  });
}

/** @ip-location-db's layout: country_code, state1, state2, city, postcode, latitude, longitude, timezone. */
function readFlat(record: Json, put: Put): void {
  const code = typeof record.country_code === 'string' ? record.country_code.toUpperCase() : '';
  put('city_name', record.city);
  put('subdivision_1_name', record.state1);
  put('subdivision_2_name', record.state2);
  if (/^[A-Z]{2}$/.test(code)) {
    put('country_name', countryName(code));
    put('country_code', code);
    const continent = continentOf(code);
    if (continent) {
      put('continent_name', continents[continent]);
      put('continent_code', continent);
    }
  }
  put('postal_code', record.postcode);
  // Stored as 32-bit floats (37.422000885009766): four decimals (about 10 m) say what they mean.
  const latitude = fourDecimals(record.latitude);
  const longitude = fourDecimals(record.longitude);
  put('latitude', latitude);
  put('longitude', longitude);
  if (typeof record.timezone === 'string' && record.timezone !== '') put('time_zone', record.timezone);
  else if (typeof latitude === 'number' && typeof longitude === 'number') put('time_zone', timeZoneAt(latitude, longitude));
}

function fourDecimals(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 10_000) / 10_000 : undefined;
}

const regionNames = new Intl.DisplayNames('en', { type: 'region', fallback: 'none' });

/** Names by code: ICU's answer costs several µs, and there are fewer than 300 codes. */
const countryNames = new Map<string, string | undefined>();

/** CLDR's English name ("United States", "United Kingdom"); undefined for codes it does not know. */
function countryName(code: string): string | undefined {
  if (countryNames.has(code)) return countryNames.get(code);
  let name: string | undefined;
  try {
    name = regionNames.of(code);
  } catch {
    name = undefined;
  }
  countryNames.set(code, name);
  return name;
}

type ContinentCode = keyof typeof continents;
/** Where MaxMind files a transcontinental country differently from countries-list. */
const CONTINENT_AS_MAXMIND: Record<string, ContinentCode> = { RU: 'EU' };

function continentOf(code: string): ContinentCode | undefined {
  return CONTINENT_AS_MAXMIND[code] ?? (countries as Record<string, { continent: ContinentCode }>)[code]?.continent;
}

/** The IANA zone at the coordinates (a city's point: a town near a zone border may get its neighbour's). */
function timeZoneAt(latitude: number, longitude: number): string | undefined {
  try {
    return tzLookup(latitude, longitude);
  } catch {
    return undefined;
  }
}

function englishName(value: Json): unknown {
  return object(value.names).en;
}

function object(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
