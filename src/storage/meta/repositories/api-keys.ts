import type { Kysely, Selectable } from 'kysely';
import type { MetaSchema, PersonalApiKeysTable } from '../schema.js';
import { parseJson } from '../json.js';
import { CountersRepository } from './counters.js';

export interface PersonalApiKey {
  id: string;
  user_id: number;
  label: string;
  mask_value: string;
  scopes: string[];
  scoped_organizations: string[] | null;
  scoped_teams: number[] | null;
  created_at: string;
  last_used_at: string | null;
  last_rolled_at?: string | null;
}

export interface NewPersonalApiKey extends PersonalApiKey {
  secure_value: string;
}

type KeyRow = Omit<Selectable<PersonalApiKeysTable>, 'secure_value'>;

function toKey(row: KeyRow): PersonalApiKey {
  return {
    ...row,
    scopes: parseJson<string[]>(row.scopes) ?? ['*'],
    scoped_organizations: parseJson<string[]>(row.scoped_organizations),
    scoped_teams: parseJson<number[]>(row.scoped_teams),
  };
}

const PUBLIC_COLUMNS = [
  'id', 'user_id', 'label', 'mask_value', 'scopes', 'scoped_organizations', 'scoped_teams', 'created_at', 'last_used_at',
  'last_rolled_at',
] as const;

export class ApiKeysRepository {
  private readonly counters: CountersRepository;

  constructor(private readonly db: Kysely<MetaSchema>) {
    this.counters = new CountersRepository(db);
  }

  async insert(key: NewPersonalApiKey): Promise<void> {
    await this.db
      .insertInto('personal_api_keys')
      .values({
        ...key,
        scopes: JSON.stringify(key.scopes),
        scoped_organizations: key.scoped_organizations ? JSON.stringify(key.scoped_organizations) : null,
        scoped_teams: key.scoped_teams ? JSON.stringify(key.scoped_teams) : null,
      })
      .execute();
  }

  async findBySecureValue(secureValue: string): Promise<PersonalApiKey | undefined> {
    const row = await this.db
      .selectFrom('personal_api_keys')
      .select(PUBLIC_COLUMNS)
      .where('secure_value', '=', secureValue)
      .executeTakeFirst();
    return row && toKey(row);
  }

  async listForUser(userId: number): Promise<PersonalApiKey[]> {
    const rows = await this.db
      .selectFrom('personal_api_keys')
      .select(PUBLIC_COLUMNS)
      .where('user_id', '=', userId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(toKey);
  }

  async countForUser(userId: number): Promise<number> {
    const row = await this.db
      .selectFrom('personal_api_keys')
      .where('user_id', '=', userId)
      .select((eb) => eb.fn.countAll().as('count'))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  /** The user's key (another user's key is not found). */
  async findForUser(userId: number, id: string): Promise<PersonalApiKey | undefined> {
    const row = await this.db.selectFrom('personal_api_keys').select(PUBLIC_COLUMNS).where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();
    return row && toKey(row);
  }

  async update(id: string, change: { label?: string; scopes?: string[] }): Promise<void> {
    const set: { label?: string; scopes?: string } = {};
    if (change.label !== undefined) set.label = change.label;
    if (change.scopes !== undefined) set.scopes = JSON.stringify(change.scopes);
    if (Object.keys(set).length === 0) return;
    await this.db.updateTable('personal_api_keys').set(set).where('id', '=', id).execute();
  }

  async setCeilings(id: string, organizations: readonly string[] | null, teams: readonly number[] | null): Promise<void> {
    await this.db
      .updateTable('personal_api_keys')
      .set({ scoped_organizations: organizations ? JSON.stringify(organizations) : null, scoped_teams: teams ? JSON.stringify(teams) : null })
      .where('id', '=', id)
      .execute();
  }

  /** A new value for the key: the old one stops matching at once. */
  async roll(id: string, secureValue: string, maskValue: string, at: string): Promise<void> {
    await this.db
      .updateTable('personal_api_keys')
      .set({ secure_value: secureValue, mask_value: maskValue, last_rolled_at: at })
      .where('id', '=', id)
      .execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('personal_api_keys').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Tells every process sharing this store that cached keys may be stale. */
  bumpEpoch(): Promise<void> {
    return this.counters.bump('api_key_epoch');
  }

  async touchLastUsed(id: string, at: string): Promise<void> {
    await this.db.updateTable('personal_api_keys').set({ last_used_at: at }).where('id', '=', id).execute();
  }

  /** Grows whenever a key is revoked, by any process sharing this store. */
  epoch(): Promise<number> {
    return this.counters.value('api_key_epoch');
  }
}
