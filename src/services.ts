// Composition root: picks the back ends once and wires the services over them.
import type { Config } from './config.js';
import { AccessResolver } from './core/access.js';
import { AccountsService } from './core/accounts/service.js';
import { IdentityService } from './core/accounts/identity.js';
import { KeyAuthenticator } from './core/auth/authenticator.js';
import { ProjectsService } from './core/projects/service.js';
import { openMetaStore, type MetaStore } from './storage/meta/connect.js';
import { Repositories } from './storage/meta/repositories/index.js';

export interface Services {
  readonly config: Config;
  readonly meta: MetaStore;
  readonly repositories: Repositories;
  readonly authenticator: KeyAuthenticator;
  readonly projects: ProjectsService;
  readonly accounts: AccountsService;
  readonly identity: IdentityService;
  /** Throws when a store is unreachable. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface ServiceOptions {
  onBackgroundError?: (error: unknown) => void;
}

export async function createServices(config: Config, options: ServiceOptions = {}): Promise<Services> {
  const meta = await openMetaStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const repositories = new Repositories(meta.db);
  const access = new AccessResolver(repositories.organizations, repositories.projects, repositories.users);
  const projects = new ProjectsService(repositories, access);
  const authenticatorOptions = options.onBackgroundError ? { onBackgroundError: options.onBackgroundError } : {};
  return {
    config,
    meta,
    repositories,
    authenticator: new KeyAuthenticator(repositories.apiKeys, authenticatorOptions),
    projects,
    accounts: new AccountsService(repositories, projects),
    identity: new IdentityService(repositories, access),
    ping: () => meta.ping(),
    close: () => meta.close(),
  };
}
