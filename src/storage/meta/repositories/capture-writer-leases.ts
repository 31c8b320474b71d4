import type { Kysely } from 'kysely';
import type { MetaSchema } from '../schema.js';

/** Who writes each event data set: one row per data set, renewed by its owner's heartbeat. */
export class CaptureWriterLeasesRepository {
  constructor(private readonly db: Kysely<MetaSchema>) {}

  /**
   * Takes the lease when it is free, already ours, or its owner stopped renewing it before
   * `staleBefore`; answers the owner afterwards (ours when taken).
   */
  async claim(storeKey: string, owner: string, now: string, staleBefore: string): Promise<string> {
    const taken = await this.db
      .updateTable('capture_writer_leases')
      .set({ owner, heartbeat_at: now })
      .where('store_key', '=', storeKey)
      .where((eb) => eb.or([eb('owner', '=', owner), eb('heartbeat_at', '<', staleBefore)]))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) > 0) return owner;
    // No row yet: the first insert wins; a process racing it finds the row and loses.
    await this.db.insertInto('capture_writer_leases').values({ store_key: storeKey, owner, heartbeat_at: now }).onConflict((oc) => oc.column('store_key').doNothing()).execute();
    const row = await this.db.selectFrom('capture_writer_leases').select('owner').where('store_key', '=', storeKey).executeTakeFirst();
    return row?.owner ?? owner;
  }

  /** Renews the lease if it is still ours; false when another process has taken it. */
  async renew(storeKey: string, owner: string, now: string): Promise<boolean> {
    const result = await this.db.updateTable('capture_writer_leases').set({ heartbeat_at: now }).where('store_key', '=', storeKey).where('owner', '=', owner).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async release(storeKey: string, owner: string): Promise<void> {
    await this.db.deleteFrom('capture_writer_leases').where('store_key', '=', storeKey).where('owner', '=', owner).execute();
  }
}
