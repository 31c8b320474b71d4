// Insights and what hangs off them: dashboards and their tiles, sharing configurations, who viewed
// what, and the query result cache with its async status and the event-write marks that tell a
// cached result its data changed. All of it lives here so that several API processes sharing one
// metadata store share caches and background-query state too.
import type { Kysely } from 'kysely';
import { autoIdColumn } from './helpers.js';

export async function up(db: Kysely<any>): Promise<void> {
  await autoIdColumn(db, db.schema.createTable('insights'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('short_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('derived_name', 'text')
    .addColumn('description', 'text')
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('query', 'text')
    .addColumn('order', 'integer')
    .addColumn('deleted', 'integer', (c) => c.notNull())
    .addColumn('saved', 'integer', (c) => c.notNull())
    .addColumn('favorited', 'integer', (c) => c.notNull())
    .addColumn('is_sample', 'integer', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('last_modified_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('last_modified_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('insights_team_short_id', ['team_id', 'short_id'])
    .execute();
  await db.schema.createIndex('insights_team_list').on('insights').columns(['team_id', 'deleted', 'order']).execute();

  await autoIdColumn(db, db.schema.createTable('dashboards'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('pinned', 'integer', (c) => c.notNull())
    .addColumn('filters', 'text', (c) => c.notNull())
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('restriction_level', 'integer', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_accessed_at', 'text')
    .execute();
  await db.schema.createIndex('dashboards_team').on('dashboards').columns(['team_id', 'deleted']).execute();

  await autoIdColumn(db, db.schema.createTable('dashboard_tiles'))
    .addColumn('dashboard_id', 'integer', (c) => c.notNull().references('dashboards.id').onDelete('cascade'))
    .addColumn('insight_id', 'integer', (c) => c.notNull().references('insights.id').onDelete('cascade'))
    .addColumn('layouts', 'text', (c) => c.notNull())
    .addColumn('color', 'text')
    .addColumn('deleted', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('dashboard_tiles_dashboard_insight', ['dashboard_id', 'insight_id'])
    .execute();
  await db.schema.createIndex('dashboard_tiles_insight').on('dashboard_tiles').column('insight_id').execute();

  await autoIdColumn(db, db.schema.createTable('sharing_configurations'))
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('insight_id', 'integer', (c) => c.references('insights.id').onDelete('cascade'))
    .addColumn('dashboard_id', 'integer', (c) => c.references('dashboards.id').onDelete('cascade'))
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('access_token', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // One configuration per insight, even when two requests enable sharing at once.
    .addUniqueConstraint('sharing_configurations_insight', ['team_id', 'insight_id'])
    .execute();

  await db.schema
    .createTable('insight_views')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('insight_id', 'integer', (c) => c.notNull().references('insights.id').onDelete('cascade'))
    .addColumn('last_viewed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('insight_views_pk', ['team_id', 'user_id', 'insight_id'])
    .execute();
  await db.schema.createIndex('insight_views_recent').on('insight_views').columns(['team_id', 'user_id', 'last_viewed_at']).execute();

  // One computed result per cache key. `range_from`/`range_to` (UTC ISO text, null = unbounded)
  // are the event times the result read; `computed_at` is when the calculation started.
  await db.schema
    .createTable('query_cache')
    .addColumn('cache_key', 'text', (c) => c.primaryKey())
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('response', 'text', (c) => c.notNull())
    .addColumn('last_refresh', 'text', (c) => c.notNull())
    .addColumn('computed_at', 'text', (c) => c.notNull())
    .addColumn('range_from', 'text')
    .addColumn('range_to', 'text')
    .execute();

  // Background calculations, polled through GET /query/:id/.
  await db.schema
    .createTable('query_status')
    .addColumn('team_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('insight_id', 'integer')
    .addColumn('dashboard_id', 'integer')
    .addColumn('complete', 'integer', (c) => c.notNull())
    .addColumn('error', 'integer', (c) => c.notNull())
    .addColumn('error_message', 'text')
    .addColumn('results', 'text')
    .addColumn('start_time', 'text', (c) => c.notNull())
    .addColumn('end_time', 'text')
    .addColumn('expiration_time', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('query_status_pk', ['team_id', 'id'])
    .execute();

  // The last time events were stored for a project's UTC day (ISO text).
  await db.schema
    .createTable('event_write_marks')
    .addColumn('team_id', 'integer', (c) => c.notNull())
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('written_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_write_marks_pk', ['team_id', 'day'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['event_write_marks', 'query_status', 'query_cache', 'insight_views', 'sharing_configurations', 'dashboard_tiles', 'dashboards', 'insights']) {
    await db.schema.dropTable(table).execute();
  }
}
