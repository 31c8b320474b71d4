// A real Hoglet app over a temporary data directory (and a fresh PostgreSQL schema when asked),
// driven through app.inject. Nothing is mocked.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { MembershipLevel } from '../../src/core/auth/principal.js';
import { buildApp } from '../../src/http/app.js';
import { createServices, type ServiceOptions, type Services } from '../../src/services.js';
import { withTestEventStore } from './event-store.js';
import { freshPostgresSchema, type MetaStoreKind } from './stores.js';

export interface Credentials {
  organizationId: string;
  projectId: number;
  projectApiToken: string;
  key: string;
  userId: number;
  email: string;
}

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  dataDir: string;
  /** A user with their own organization, project and a key with the given scopes. */
  bootstrap(email: string, options?: { organization?: string; scopes?: string[] }): Promise<Credentials>;
  /** A key for an existing user, optionally narrowed to some organizations or projects. */
  key(
    email: string,
    scopes: string[],
    ceilings?: { organizations?: string[]; teams?: number[] },
  ): Promise<string>;
  /** Makes a user a member of an organization at a level. */
  addMember(organizationId: string, email: string, level: number): Promise<void>;
  request(key: string | null, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function createTestApp(store: MetaStoreKind, env: Record<string, string> = {}, options: ServiceOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-test-'));
  const schema = store === 'postgres' ? await freshPostgresSchema() : null;
  const config = withTestEventStore(loadConfig({ dataDir }, { ...env, ...(schema ? { DATABASE_URL: schema.url } : {}) }));
  const services = await createServices(config, options);
  const app = await buildApp(services);
  await app.ready();

  const testApp: TestApp = {
    app,
    services,
    dataDir,
    async bootstrap(email, options = {}) {
      const result = await services.accounts.bootstrap({
        email,
        organizationName: options.organization ?? `Org of ${email}`,
        projectName: 'Default project',
        scopes: options.scopes ?? ['*'],
      });
      return {
        organizationId: result.organization_id,
        projectId: result.project_id,
        projectApiToken: result.project_api_token,
        key: result.personal_api_key,
        userId: result.user_id,
        email,
      };
    },
    async key(email, scopes, ceilings = {}) {
      const { key, value } = await services.accounts.createKey(email, scopes, 'test');
      if (ceilings.organizations || ceilings.teams) {
        await services.meta.db
          .updateTable('personal_api_keys')
          .set({
            scoped_organizations: ceilings.organizations ? JSON.stringify(ceilings.organizations) : null,
            scoped_teams: ceilings.teams ? JSON.stringify(ceilings.teams) : null,
          })
          .where('id', '=', key.id)
          .execute();
      }
      return value;
    },
    async addMember(organizationId, email, level = MembershipLevel.member) {
      let user = await services.repositories.users.findByEmail(email);
      if (!user) {
        // Creating a user goes through bootstrap (their own organization), as the CLI does.
        await testApp.bootstrap(email, { organization: `Own org of ${email}` });
        user = (await services.repositories.users.findByEmail(email))!;
      }
      await services.repositories.organizations.addMember(organizationId, user.id, level, new Date().toISOString());
    },
    request(key, options) {
      const headers = { ...(options.headers ?? {}) } as Record<string, string>;
      if (key !== null) headers.authorization = `Bearer ${key}`;
      return app.inject({ ...options, headers });
    },
    async close() {
      await app.close();
      const database = services.events.layout.database;
      await services.events.command(`DROP DATABASE IF EXISTS ${database}`);
      await services.close();
      await schema?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}
