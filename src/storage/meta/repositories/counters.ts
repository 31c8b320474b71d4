import { sql, type Kysely } from 'kysely';
import type { MetaSchema } from '../schema.js';

export type CounterName = 'api_key_epoch' | 'project_token_epoch';

/** Shared counters that tell every process sharing the store that its caches may be stale. */
export class CountersRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  async bump(name: CounterName): Promise<void> {
    await this.db
      .updateTable('counters')
      .set({ value: sql`value + 1` })
      .where('name', '=', name)
      .execute();
  }

  async value(name: CounterName): Promise<number> {
    const row = await this.db.selectFrom('counters').select('value').where('name', '=', name).executeTakeFirst();
    return Number(row?.value ?? 0);
  }
}
