import type { Kysely } from 'kysely';
import type { MetaSchema } from '../schema.js';
import { ActionsRepository } from './actions.js';
import { ActivityLogRepository } from './activity-log.js';
import { AnnotationsRepository } from './annotations.js';
import { ApiKeysRepository } from './api-keys.js';
import { CaptureWriterLeasesRepository } from './capture-writer-leases.js';
import { CohortsRepository } from './cohorts.js';
import { CountersRepository } from './counters.js';
import { DashboardsRepository } from './dashboards.js';
import { DefinitionMetadataRepository } from './definition-metadata.js';
import { FeatureFlagsRepository } from './feature-flags.js';
import { InsightViewsRepository } from './insight-views.js';
import { InsightsRepository } from './insights.js';
import { InvitesRepository } from './invites.js';
import { MembersRepository } from './members.js';
import { OrganizationsRepository } from './organizations.js';
import { ProjectsRepository } from './projects.js';
import { QueryCacheRepository } from './query-cache.js';
import { SharingRepository } from './sharing.js';
import { UserSessionsRepository } from './user-sessions.js';
import { UsersRepository } from './users.js';

/** Every metadata repository over one connection (or one transaction). */
export class Repositories {
  readonly organizations: OrganizationsRepository;
  readonly members: MembersRepository;
  readonly invites: InvitesRepository;
  readonly users: UsersRepository;
  readonly userSessions: UserSessionsRepository;
  readonly projects: ProjectsRepository;
  readonly apiKeys: ApiKeysRepository;
  readonly activityLog: ActivityLogRepository;
  readonly counters: CountersRepository;
  readonly actions: ActionsRepository;
  readonly annotations: AnnotationsRepository;
  readonly cohorts: CohortsRepository;
  readonly featureFlags: FeatureFlagsRepository;
  readonly insights: InsightsRepository;
  readonly dashboards: DashboardsRepository;
  readonly sharing: SharingRepository;
  readonly insightViews: InsightViewsRepository;
  readonly queryCache: QueryCacheRepository;
  readonly captureWriterLeases: CaptureWriterLeasesRepository;
  readonly definitionMetadata: DefinitionMetadataRepository;

  constructor(private readonly db: Kysely<MetaSchema>) {
    this.organizations = new OrganizationsRepository(db);
    this.members = new MembersRepository(db);
    this.invites = new InvitesRepository(db);
    this.users = new UsersRepository(db);
    this.userSessions = new UserSessionsRepository(db);
    this.projects = new ProjectsRepository(db);
    this.apiKeys = new ApiKeysRepository(db);
    this.activityLog = new ActivityLogRepository(db);
    this.counters = new CountersRepository(db);
    this.actions = new ActionsRepository(db);
    this.annotations = new AnnotationsRepository(db);
    this.cohorts = new CohortsRepository(db);
    this.featureFlags = new FeatureFlagsRepository(db);
    this.insights = new InsightsRepository(db);
    this.dashboards = new DashboardsRepository(db);
    this.sharing = new SharingRepository(db);
    this.insightViews = new InsightViewsRepository(db);
    this.queryCache = new QueryCacheRepository(db);
    this.captureWriterLeases = new CaptureWriterLeasesRepository(db);
    this.definitionMetadata = new DefinitionMetadataRepository(db);
  }

  /** Runs `work` atomically: all of its writes land, or none do. */
  transaction<T>(work: (repositories: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => work(new Repositories(trx)));
  }
}
