import { sql, type Kysely } from 'kysely';
import type { MetaSchema } from '../schema.js';

export type CounterName = 'api_key_epoch' | 'project_token_epoch' | 'persons_deleted_epoch';

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

  /** Like bump, for a counter no migration created: its first bump creates it (at 1). */
  async advance(name: CounterName): Promise<void> {
    await this.db
      .insertInto('counters')
      .values({ name, value: 1 })
      .onConflict((oc) => oc.column('name').doUpdateSet({ value: sql`counters.value + 1` }))
      .execute();
  }

  async value(name: CounterName): Promise<number> {
    const row = await this.db.selectFrom('counters').select('value').where('name', '=', name).executeTakeFirst();
    return Number(row?.value ?? 0);
  }
}
