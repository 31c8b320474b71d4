// Background warm-up of the /flags/ subject cache: after a restart, a person capture has not
// written in this process would cost an event-store read on their first /flags/ request. Once a
// project's flags need person properties (an active flag with a person or cohort condition), its
// persons and their distinct ids are read in chunks, newest first, and cached as capture caches
// what it writes (properties kept as stored text, parsed on first use). Entries already cached
// (capture wrote them, or a request read them) are kept, and an entry capture writes while a
// chunk is read is newer than the chunk. It stops at the cache's bounds: a project with more
// persons than fit gets its newest ones warm and the rest read cold on first use.
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { ProjectFlags } from '../definitions-cache.js';
import type { FlagPersonReads, WarmPerson } from './person-reads.js';

/** Persons per statement: small enough that parsing one chunk's rows stays a few ms. */
export const WARM_CHUNK_PERSONS = 2_000;
/** Persons cached per turn of the event loop (2,000 at once held it ~4-16 ms; 250, ~1-2 ms). */
const WARM_SLICE_PERSONS = 250;

/** What the warm-up fills: the subject loader. */
export interface WarmTarget {
  /** Marks the start of a read (an entry written after it is newer than what the read returns). */
  readStarted(projectId: number): unknown;
  /** Whether the cache has room for this many more persons (entries and bytes). */
  hasRoom(persons: number): boolean;
  /** Caches the persons read since `started`, keeping newer entries. */
  remember(projectId: number, started: unknown, persons: readonly WarmPerson[]): void;
  /** Only the capture writer's process sees every write, so only its warm entries last. */
  writesHere(): boolean;
}

/** Whether an active flag of the project reads person properties or cohorts. */
export function needsPersons(definitions: ProjectFlags): boolean {
  return definitions.flags.some(
    (flag) =>
      flag.active &&
      [...(flag.filters.groups ?? []), ...(flag.filters.super_groups ?? [])].some((set) =>
        (set.properties ?? []).some((p) => p.type === 'person' || p.type === 'cohort'),
      ),
  );
}

/** The warm-up after start waits this long: the server's own start (and capture's replay) go first. */
export const WARM_UP_START_DELAY_MS = 1_000;

/** What `/_health` says of the warm-up (the benchmark waits for `warming: false`). */
export interface WarmUpStatus {
  warming: boolean;
  /** Persons read into the cache since start. */
  persons: number;
  /** The longest event-loop delay seen while warming (ms; every task of the process counts). */
  longest_loop_delay_ms: number;
}

export class FlagSubjectWarmUp {
  private running = 0;
  private persons = 0;
  private loopDelay: IntervalHistogram | null = null;
  private longestDelayMs = 0;

  private readonly projects = new Map<number, Promise<void>>();
  private stopped = false;
  /** Finding the projects to warm after start (idle() waits for it too). */
  private starting: Promise<void> = Promise.resolve();
  private cancelStart = () => {};

  constructor(
    private readonly reads: FlagPersonReads,
    private readonly target: WarmTarget,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Starts the project's warm-up once, when its flags need persons (never waits for it). */
  consider(projectId: number, definitions: ProjectFlags): void {
    if (this.stopped || this.projects.has(projectId) || !needsPersons(definitions) || !this.target.writesHere()) return;
    // One project after another: the statements share the ingest lane with capture.
    const previous = Promise.all(this.projects.values());
    this.running++;
    this.projects.set(
      projectId,
      previous
        .then(() => this.measured(() => this.warm(projectId)))
        .catch(this.onError)
        .finally(() => this.running--),
    );
  }

  /** After the server started (WARM_UP_START_DELAY_MS): `find` calls consider() for each project. */
  start(find: () => Promise<void>): void {
    this.starting = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, WARM_UP_START_DELAY_MS);
      timer.unref();
      // Stopping before it began: nothing to wait for.
      this.cancelStart = () => {
        clearTimeout(timer);
        resolve();
      };
    })
      .then(() => (this.stopped ? undefined : find()))
      .catch(this.onError);
  }

  /** Resolves once every warm-up started so far is done (tests, the benchmark's status). */
  async idle(): Promise<void> {
    await this.starting;
    let size = -1;
    while (size !== this.projects.size) {
      size = this.projects.size;
      await Promise.all(this.projects.values());
    }
  }

  status(): WarmUpStatus {
    const current = this.loopDelay ? this.loopDelay.max / 1e6 : 0;
    return { warming: this.running > 0, persons: this.persons, longest_loop_delay_ms: Math.round(Math.max(this.longestDelayMs, current) * 10) / 10 };
  }

  /** Runs one project's warm-up with the event loop's delay watched. */
  private async measured(warm: () => Promise<void>): Promise<void> {
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    this.loopDelay = histogram;
    histogram.enable();
    try {
      await warm();
    } finally {
      histogram.disable();
      this.longestDelayMs = Math.max(this.longestDelayMs, histogram.max / 1e6);
      this.loopDelay = null;
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelStart();
    await this.idle();
  }

  private async warm(projectId: number): Promise<void> {
    for (let offset = 0; !this.stopped && this.target.hasRoom(WARM_CHUNK_PERSONS); offset += WARM_CHUNK_PERSONS) {
      const started = this.target.readStarted(projectId);
      const persons = await this.reads.personsPage(projectId, offset, WARM_CHUNK_PERSONS);
      if (this.stopped) return;
      for (let from = 0; from < persons.length && !this.stopped; from += WARM_SLICE_PERSONS) {
        // Let requests and capture run between slices.
        await new Promise((resolve) => setImmediate(resolve));
        const slice = persons.slice(from, from + WARM_SLICE_PERSONS);
        this.target.remember(projectId, started, slice);
        this.persons += slice.length;
      }
      if (persons.length < WARM_CHUNK_PERSONS) return;
    }
  }
}
