// Composition root: picks the back ends once and wires the services over them.
import type { BackupManifest } from './core/backup/manifest.js';
import { takeSnapshot } from './core/backup/snapshot.js';
import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Config } from './config.js';
import { AccessResolver } from './core/access.js';
import { ActionsService } from './core/actions/service.js';
import { AnnotationsService } from './core/annotations/service.js';
import { CohortCalculator } from './core/cohorts/calculation.js';
import { EventRetentionJob } from './core/retention/event-retention.js';
import { EventRetentionStatus } from './core/retention/status.js';
import { EventRetentionStore } from './storage/events/retention-repository.js';
import { EventRetentionRunsRepository } from './storage/meta/repositories/event-retention.js';
import { CohortDefinitions } from './core/cohorts/definitions.js';
import { CohortsService } from './core/cohorts/service.js';
import { FlagDefinitions } from './core/flags/definitions.js';
import { FeatureFlagsService } from './core/flags/service.js';
import { StaticMembers } from './core/cohorts/static-members.js';
import { StaticCohortsRepository } from './storage/events/static-cohorts-repository.js';
import { AccountsService } from './core/accounts/service.js';
import { IdentityService } from './core/accounts/identity.js';
import { KeyAuthenticator } from './core/auth/authenticator.js';
import { PersonsService } from './core/persons/service.js';
import { PersonDeletionService, personsDeletedWatch } from './core/persons/deletion.js';
import { PersonDeletionsRepository } from './storage/events/person-deletions.js';
import { LoginThrottle, type LoginThrottleLimits } from './core/auth/login-throttle.js';
import { CaptureWriterLease, DEFAULT_LEASE_TIMING } from './core/capture/writer-lease.js';
import { SessionService } from './core/auth/sessions.js';
import { EventWriter, IncompleteWriteError } from './core/capture/event-writer.js';
import { DecodeBudget } from './core/capture/decode-budget.js';
import { openCapturePipeline } from './core/capture/pipeline.js';
import { GroupProcessor } from './core/capture/persons/group-processor.js';
import { PersonProcessor, type PersonWarning } from './core/capture/persons/person-processor.js';
import { ProjectTokens } from './core/capture/project-tokens.js';
import { CaptureService } from './core/capture/service.js';
import { RecordingBlockStore, type RecordingBlocks } from './core/replay/block-store.js';
import { S3RecordingBlockStore } from './core/replay/s3-block-store.js';
import { ReplayService } from './core/replay/service.js';
import { projectSettingFlag } from './core/projects/setting-flag.js';
import { RecordingsService } from './core/replay/recordings.js';
import { RecordingSharingService } from './core/replay/recording-sharing.js';
import { RecordingRemovals } from './core/replay/recording-removal.js';
import { RecordingRetentionJob } from './core/replay/recording-retention.js';
import { CaptureGeoIp } from './core/geoip/capture-geoip.js';
import { bundledDatabase, GeoIpDatabase } from './core/geoip/database.js';
import { DefinitionsService } from './core/definitions/service.js';
import { setPropertyTypes } from './core/definitions/set-types.js';
import type { FlagSources, GroupTypesOf } from './core/sdk/service.js';
import { FlagDefinitionsCache } from './core/flags/definitions-cache.js';
import { FlagPersonReads } from './core/flags/subjects/person-reads.js';
import { FlagSubjectLoader } from './core/flags/subjects/loader.js';
import { ProjectRowCache } from './core/sdk/project-rows.js';
import { DemoDataRunner } from './core/demo/runner.js';
import { ProjectsService } from './core/projects/service.js';
import { DashboardsService } from './core/dashboards/service.js';
import { InsightsService } from './core/insights/service.js';
import { InsightSharingService } from './core/insights/sharing.js';
import { QueryResults } from './core/queries/results.js';
import { InsightQueryService } from './core/queries/service.js';
import { QueryExecutor } from './query/execute.js';
import { configureSharedHogQLParser } from './query/hogql/parse/index.js';
import { openEventStore } from './storage/events/connect.js';
import { DefinitionsRepository } from './storage/events/definitions-repository.js';
import type { EventStore } from './storage/events/event-store.js';
import { EventsRepository } from './storage/events/events-repository.js';
import { classifyWriteFailure } from './storage/events/write-failure.js';
import { PersonsRepository } from './storage/events/persons-repository.js';
import { openMetaStore, type MetaStore } from './storage/meta/connect.js';
import { Repositories } from './storage/meta/repositories/index.js';

/** How long a read waits for capture's inserter to store what was acknowledged before it began. */
const READ_WAITS_FOR_CAPTURE_MS = 5_000;

export interface Services {
  readonly config: Config;
  readonly meta: MetaStore;
  readonly events: EventStore;
  readonly repositories: Repositories;
  readonly authenticator: KeyAuthenticator;
  /** Web app sign-in and browser sessions. */
  readonly sessions: SessionService;
  readonly projects: ProjectsService;
  /** Actions; the query engine expands an action with actions.getForQuery(projectId, actionId). */
  readonly actions: ActionsService;
  /** Annotations: notes at a date on charts (PostHog's /annotations/). */
  readonly annotations: AnnotationsService;
  /** Cohorts: the API's use cases; queries evaluate them through CohortDefinitions. */
  readonly cohorts: CohortsService;
  /** The feature flags API's use cases. */
  readonly featureFlags: FeatureFlagsService;
  /** A project's live flags as evaluation reads them, and its flags epoch (for the /flags endpoints). */
  readonly flagDefinitions: FlagDefinitions;
  /** The persons resource (list, one person) for the web app and API clients. */
  readonly persons: PersonsService;
  /** Deleting persons (and their events) as PostHog's person API does. */
  readonly personDeletions: PersonDeletionService;
  /** Event and property definitions, computed from stored events and persons. */
  readonly definitions: DefinitionsService;
  /** A project's group types as capture numbered them. */
  readonly groupTypesOf: GroupTypesOf;
  /** What /flags/ and the local-evaluation endpoints read: cached definitions and subjects. */
  readonly flagSources: FlagSources;
  /** Trends and funnels (and /query/) for a caller's project. */
  readonly queries: InsightQueryService;
  /** The one executor every analytical statement runs through (limits, query ids, cancel). */
  readonly executor: QueryExecutor;
  /** Cached and background query results (refresh modes). */
  readonly results: QueryResults;
  readonly insights: InsightsService;
  readonly sharing: InsightSharingService;
  readonly dashboards: DashboardsService;
  readonly accounts: AccountsService;
  readonly identity: IdentityService;
  readonly capture: CaptureService;
  /** Session recording snapshots (/s/): stored blocks of rrweb data and their summary rows. */
  readonly replay: ReplayService;
  /** PostHog's session recordings API: list, one, snapshots, delete. */
  readonly recordings: RecordingsService;
  /** Sharing one recording by link (its token reads that recording's metadata and snapshots only). */
  readonly recordingSharing: RecordingSharingService;
  /** The GeoIP database capture locates `$ip` in (loaded on first need, or by preload()); null when off. */
  readonly geoip: GeoIpDatabase | null;
  /** Whether acknowledged events of the project on these UTC days are not in the event store yet. */
  readonly capturePending: (teamId: number, fromDay: string | null, toDay: string | null) => boolean;
  /** Events the capture log replayed at start (acknowledged by the previous run, maybe not inserted). */
  readonly captureReplayed: number;
  /** What capture holds that is not in the event store yet: the backlog, and events set aside. */
  captureStatus(): Promise<CaptureStatus>;
  /** Lays a consistent copy of the embedded stores into a staging directory (`hoglet backup`). */
  backupSnapshot(staging: string): Promise<BackupManifest>;
  readonly projectTokens: ProjectTokens;
  readonly demo: DemoDataRunner;
  /** Removes events older than each project's retention (serve() starts it; tests run it by hand). */
  readonly eventRetention: EventRetentionJob;
  readonly eventRetentionStatus: EventRetentionStatus;
  /** Removes recordings older than each project's session_recording_retention_period (serve() starts it). */
  readonly recordingRetention: RecordingRetentionJob;
  /** Throws when a store is unreachable. */
  ping(): Promise<void>;
  /** Finishes accepted work (pending inserts, demo data), then closes the stores. */
  close(): Promise<void>;
}

export interface CaptureStatus {
  /** Acknowledged events waiting to be inserted. */
  waiting_events: number;
  /** Events the store refused after acknowledging them, in capture-log/refused/ (`hoglet capture reinsert`). */
  set_aside_events: number;
  set_aside_files: number;
  /** The capture log's sequence numbers: a record is dealt with once `inserted` reaches its number. */
  log: { acknowledged: number; inserted: number };
}

export interface ServiceOptions {
  onBackgroundError?: (error: unknown) => void;
  onPersonWarning?: (warning: PersonWarning) => void;
  /**
   * Whether this process may take the capture writer lease from another at once. Default: with
   * the embedded store, whose directory lock already makes this process its only writer.
   */
  captureLeaseTakeOver?: boolean;
  /** Sign-in throttling limits (tests lower them so a lockout takes a few hashes, not 100). */
  loginLimits?: LoginThrottleLimits;
}

/** Just the metadata side, for CLI commands that must work while a server owns the event store. */
export interface AccountServices {
  readonly config: Config;
  readonly meta: MetaStore;
  readonly repositories: Repositories;
  readonly accounts: AccountsService;
  close(): Promise<void>;
}

export async function createAccountServices(config: Config): Promise<AccountServices> {
  const meta = await openMetaStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const repositories = new Repositories(meta.db);
  const access = new AccessResolver(repositories.organizations, repositories.projects, repositories.users);
  const tokens = new ProjectTokens(repositories);
  const projects = new ProjectsService(repositories, access, {
    tokenRevoked: () => tokens.invalidate(),
    purgeEvents: () => Promise.reject(new Error('deleting a project needs the server (it owns the event store)')),
    startDemoData: () => {},
    isGeneratingDemoData: () => false,
  });
  return { config, meta, repositories, accounts: new AccountsService(repositories, projects), close: () => meta.close() };
}

/**
 * Which event data set a process writes: the store's address (server, or embedded directory) and
 * database, hashed (a server URL may carry a password, which has no place in the metadata store).
 */
function eventDataSetKey(events: Config['events']): string {
  const address = `${events.clickhouseUrl ?? `chdb:${path.resolve(events.chdbPath)}`}#${events.database}`;
  return createHash('sha256').update(address).digest('hex');
}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const meta = await openMetaStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  let events: EventStore;
  try {
    events = await openEventStore(config.events);
  } catch (error) {
    await meta.close();
    throw error;
  }
  const onBackgroundError = options.onBackgroundError ?? (() => {});
  const repositories = new Repositories(meta.db);
  const access = new AccessResolver(repositories.organizations, repositories.projects, repositories.users);
  const eventsRepository = new EventsRepository(events);
  const personsRepository = new PersonsRepository(events);
  const tokens = new ProjectTokens(repositories);
  // Set once capture is open; capture's person writes fill its cached subjects, group writes make them stale.
  let flagSubjects: FlagSubjectLoader | undefined;

  // Projects and demo data refer to each other (a demo project is filled by capture), hence `let`.
  let demo: DemoDataRunner | undefined;
  const projectRows = new ProjectRowCache(repositories.projects, meta.db);
  const projects = new ProjectsService(repositories, access, {
    tokenRevoked: () => tokens.invalidate(),
    changed: () => projectRows.clear(),
    // Events acknowledged before the token was revoked may still be on their way to the store.
    purgeEvents: async (projectId) => {
      await pipeline.committer.drain();
      await captureSettled();
      await eventsRepository.deleteTeam(projectId);
      await recordingBlocks.removeTeam(projectId);
    },
    startDemoData: (projectId) => void demo?.start(projectId),
    isGeneratingDemoData: (projectId) => demo?.isRunning(projectId) ?? false,
  });
  const writer = new EventWriter(
    eventsRepository,
    personsRepository,
    new PersonProcessor(personsRepository, options.onPersonWarning),
    new GroupProcessor(personsRepository),
    async (written, writes) => {
      void projects.markIngested(written.map((w) => w.teamId)).catch(onBackgroundError);
      flagSubjects?.rememberWritten(writes);
      // Awaited, and a failure fails the flush: a result cached before these events must read as
      // outdated once they are acknowledged.
      const marks = written.flatMap((w) => w.days.map((day) => ({ team_id: w.teamId, day })));
      await repositories.queryCache.markWritten(marks, new Date().toISOString());
    },
    // Experience continuity (reference 2.10): a merged person's flag hash key overrides go to the
    // survivor, whose own win. A failure is logged; the events are stored already.
    async (merges) => {
      for (const merge of merges) {
        await repositories.featureFlags.moveHashKeyOverrides(merge.teamId, merge.fromPersonId, merge.intoPersonId).catch(onBackgroundError);
      }
    },
    // A person deleted through another process: this one's cached persons are read again.
    personsDeletedWatch(() => repositories.counters.value('persons_deleted_epoch')),
  );
  const writerLease = new CaptureWriterLease(repositories.captureWriterLeases, eventDataSetKey(config.events), DEFAULT_LEASE_TIMING, onBackgroundError);
  let pipeline: Awaited<ReturnType<typeof openCapturePipeline>>;
  try {
    await writerLease.start({ takeOver: options.captureLeaseTakeOver ?? config.events.clickhouseUrl === null });
    pipeline = await openCapturePipeline({
      directory: config.captureLogDir,
      write: (items) => writer.write(items),
      // A refused write is the content's only while the store itself answers.
      classifyInsert: async (error) => {
        const kind = error instanceof IncompleteWriteError ? 'store' : classifyWriteFailure(error);
        return kind !== 'store' && (await events.ping().then(() => true, () => false)) ? kind : 'store';
      },
      canWrite: () => writerLease.holds(),
      onProblem: (message, error) => onBackgroundError(new Error(`capture: ${message}`, { cause: error })),
    });
  } catch (error) {
    await writerLease.stop().catch(() => {});
    await events.close();
    await meta.close();
    throw error;
  }
  // Events set aside by an earlier run are said at every start until an operator reinserts them.
  void pipeline.setAside.count().then(({ files, events }) => {
    if (files > 0) onBackgroundError(new Error(`capture: ${events} acknowledged event(s) in ${files} file(s) are set aside in ${pipeline.setAside.directory}; \`hoglet capture reinsert\` inserts them again`));
  }, onBackgroundError);
  const captureSettled = () => pipeline.inserter.visible(READ_WAITS_FOR_CAPTURE_MS);
  events.setReadBarrier(captureSettled);
  flagSubjects = new FlagSubjectLoader(new FlagPersonReads(events, personsRepository), repositories.featureFlags, {
    pending: (projectId) => pipeline.inserter.hasPendingDays(projectId, null, null),
    settled: captureSettled,
    writesHere: () => writerLease.holds(),
  }, onBackgroundError);
  // This process's flag and cohort writes clear it at once; another's are seen within a second.
  const flagDefinitionsCache = new FlagDefinitionsCache(repositories.featureFlags, repositories.cohorts, meta.db);
  const flagSources: FlagSources = { definitions: flagDefinitionsCache, subjects: flagSubjects, projectRows };
  // After start, in the background: warm the subject cache of the projects whose active flags
  // need persons (warm-up.ts); a project whose flags come later warms on its first /flags/ request.
  const warmUp = flagSubjects.warmUp;
  warmUp.start(async () => {
    const teams = await meta.db.selectFrom('feature_flags').select('team_id').distinct().where('deleted', '=', 0).where('active', '=', 1).execute();
    for (const { team_id } of teams) warmUp.consider(team_id, await flagDefinitionsCache.of(team_id));
  });
  const geoip = config.geoipDatabase === 'off'
    ? null
    : new GeoIpDatabase(
      config.geoipDatabase === 'bundled' ? bundledDatabase() : config.geoipDatabase.map((file) => ({ path: file })),
      (message, error) => onBackgroundError(new Error(message, { cause: error })),
    );
  const captureGeoIp = new CaptureGeoIp(geoip, projectSettingFlag((teamId) => projectRows.row(teamId), 'anonymize_ips'));
  // /s/ decodes within the same memory budget as the event endpoints.
  const decodeBudget = new DecodeBudget(config.captureMemoryBytes);
  const capture = new CaptureService(tokens, pipeline.committer, decodeBudget, writerLease, pipeline.inserter, captureGeoIp);
  demo = new DemoDataRunner(capture, onBackgroundError);
  // Recordings' blocks under the data directory, or in S3-compatible object storage when configured.
  const recordingBlocks: RecordingBlocks = config.recordingsObjectStorage
    ? new S3RecordingBlockStore(config.recordingsObjectStorage)
    : new RecordingBlockStore(path.join(config.dataDir, 'recordings'));
  // Temporary files of blocks a crash interrupted were never acknowledged.
  void recordingBlocks.removeTemporaryFiles().catch((error) => onBackgroundError(new Error('replay: removing temporary blocks', { cause: error })));
  const replay = new ReplayService(tokens,
    // PostHog's capture accepts /s/ for any token and its recordings consumer drops the messages of
    // teams without session_recording_opt_in: answered 200 (no SDK retry), nothing stored or counted.
    projectSettingFlag((teamId) => projectRows.row(teamId), 'session_recording_opt_in'), recordingBlocks, events, config.replayLimits, decodeBudget, writerLease);
  const actions = new ActionsService(repositories, access);
  const executor = new QueryExecutor(events, { timeoutSeconds: config.queryTimeoutSeconds, maxResultRows: 100_000 });
  configureSharedHogQLParser({ workers: config.hogqlParsers });
  const queries = new InsightQueryService(access, actions, executor, new CohortDefinitions(repositories.cohorts), (projectId) =>
    setPropertyTypes(repositories.definitionMetadata, projectId),
  );
  const capturePending = (teamId: number, fromDay: string | null, toDay: string | null) => pipeline.inserter.hasPendingDays(teamId, fromDay, toDay);
  const results = new QueryResults(queries, repositories.queryCache, Date.now, {
    capture: { pending: capturePending, settled: captureSettled },
    limits: config.queryResults,
    onProblem: (message, error) => onBackgroundError(new Error(`query results: ${message}`, { cause: error })),
  });
  const insights = new InsightsService(repositories, access, queries, results);
  const cohortCalculator = new CohortCalculator(repositories.cohorts, queries, onBackgroundError);
  const cohorts = new CohortsService(repositories, access, cohortCalculator, new StaticMembers(new StaticCohortsRepository(events), queries), () => flagDefinitionsCache.clear());
  const retentionRuns = new EventRetentionRunsRepository(meta.db);
  const eventRetention = new EventRetentionJob({
    store: new EventRetentionStore(events),
    runs: retentionRuns,
    markChanged: (marks, at) => repositories.queryCache.markWritten(marks, at),
    mayRun: () => writerLease.holds(),
    onError: (error) => onBackgroundError(new Error('event retention', { cause: error })),
  });
  const recordingRemovals = new RecordingRemovals(events, recordingBlocks);
  const recordings = new RecordingsService(access, events, recordingBlocks, executor, (project, query) => queries.contextOf(project, query));
  const recordingRetention = new RecordingRetentionJob({
    removals: recordingRemovals,
    projectSettings: () => retentionRuns.projectSettings(),
    mayRun: () => writerLease.holds(),
    onError: (error) => onBackgroundError(new Error('recording retention', { cause: error })),
  });
  const authenticatorOptions = options.onBackgroundError ? { onBackgroundError: options.onBackgroundError } : {};
  return {
    config,
    meta,
    events,
    repositories,
    authenticator: new KeyAuthenticator(repositories.apiKeys, authenticatorOptions),
    sessions: new SessionService(repositories, new LoginThrottle(options.loginLimits)),
    projects,
    actions,
    annotations: new AnnotationsService(repositories, access),
    cohorts,
    featureFlags: new FeatureFlagsService(repositories, access, () => flagDefinitionsCache.clear()),
    flagDefinitions: new FlagDefinitions(repositories.featureFlags),
    persons: new PersonsService(access, queries, executor),
    personDeletions: new PersonDeletionService(access, repositories, personsRepository, new PersonDeletionsRepository(events), {
      settled: async () => {
        await pipeline.committer.drain();
        await captureSettled();
      },
      betweenWrites: (work) => writer.between(work),
      written: (writes) => flagSubjects?.rememberWritten(writes),
      ingest: (teamId, captured) => capture.ingest(teamId, captured),
    }, recordingRemovals),
    definitions: new DefinitionsService(access, new DefinitionsRepository(events, config.queryTimeoutSeconds), repositories),
    // Read on capture's own lane (no read barrier there), so it waits for capture itself.
    groupTypesOf: async (teamId) => {
      await captureSettled();
      return personsRepository.groupTypes(teamId);
    },
    flagSources,
    queries,
    executor,
    results,
    insights,
    sharing: new InsightSharingService(repositories, insights),
    dashboards: new DashboardsService(repositories, access, insights),
    accounts: new AccountsService(repositories, projects),
    identity: new IdentityService(repositories, access),
    capture,
    replay,
    recordings,
    recordingSharing: new RecordingSharingService(repositories, access, recordings),
    geoip,
    capturePending,
    captureReplayed: pipeline.replayed,
    backupSnapshot: (staging) =>
      takeSnapshot({ events, eventsDir: config.events.chdbPath, meta, inserter: pipeline.inserter, captureLogDir: config.captureLogDir, recordingsDir: recordingBlocks.backupDirectory }, staging),
    captureStatus: async () => {
      const setAside = await pipeline.setAside.count();
      return { waiting_events: pipeline.inserter.backlog, set_aside_events: setAside.events, set_aside_files: setAside.files, log: pipeline.inserter.progress };
    },
    projectTokens: tokens,
    demo,
    eventRetention,
    eventRetentionStatus: new EventRetentionStatus(access, retentionRuns),
    recordingRetention,
    ping: async () => {
      await meta.ping();
      await events.ping();
    },
    close: async () => {
      await demo.stop();
      await eventRetention.stop();
      await recordingRetention.stop();
      await cohortCalculator.stop();
      await capture.drain();
      await pipeline.close();
      await writerLease.stop();
      await results.drain();
      await flagSubjects?.warmUp.stop();
      await events.close();
      await meta.close();
    },
  };
}
