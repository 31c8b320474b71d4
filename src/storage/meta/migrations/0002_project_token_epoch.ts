// A counter every process watches: bumped when a project token stops being valid (reset, delete),
// so capture servers drop their cached token lookups.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql`insert into counters (name, value) values ('project_token_epoch', 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`delete from counters where name = 'project_token_epoch'`.execute(db);
}
