// Two users, each with their own organization and project, over the metadata store alone (no
// event store): for repository tests that check one project never sees or changes the other's rows.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { createAccountServices, type AccountServices } from '../../src/services.js';
import type { Repositories } from '../../src/storage/meta/repositories/index.js';
import { freshPostgresSchema, type MetaStoreKind } from './stores.js';

export interface Tenant {
  organization_id: string;
  project_id: number;
  user_id: number;
}

export interface TwoOrganizations {
  services: AccountServices;
  repos: Repositories;
  /** Organization "A" (alice@example.com) and organization "B" (bob@example.com). */
  alice: Tenant;
  bob: Tenant;
  close(): Promise<void>;
}

export async function openTwoOrganizations(store: MetaStoreKind): Promise<TwoOrganizations> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hoglet-two-orgs-'));
  const schema = store === 'postgres' ? await freshPostgresSchema() : null;
  const services = await createAccountServices(loadConfig({ dataDir }, schema ? { DATABASE_URL: schema.url } : {}));
  const tenant = (email: string, name: string) => services.accounts.bootstrap({ email, organizationName: name, projectName: name, scopes: ['*'] });
  return {
    services,
    repos: services.repositories,
    alice: await tenant('alice@example.com', 'A'),
    bob: await tenant('bob@example.com', 'B'),
    async close() {
      await services.close();
      await schema?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
