// The activity log: who changed what, kept per project and shown newest first, in PostHog's shape.
import type { ActivityEntryWithUser, ActivityLogRepository } from '../storage/meta/repositories/activity-log.js';
import { nowIso, uuidv7 } from './tokens.js';

export interface Change {
  type: string;
  action: 'created' | 'changed' | 'deleted';
  field: string;
  before: unknown;
  after: unknown;
}

export interface ActivityDetail {
  changes: Change[] | null;
  trigger: null;
  name: string | null;
  short_id: string | null;
  type: string | null;
}

export interface NewActivity {
  organizationId: string;
  projectId: number | null;
  userId: number | null;
  scope: string;
  itemId: string;
  activity: string;
  detail: ActivityDetail;
}

export interface ActivityView {
  id: string;
  user: { first_name: string; email: string | null; is_system?: true } | null;
  activity: string;
  scope: string;
  item_id: string;
  detail: unknown;
  created_at: string;
  is_system: boolean;
  was_impersonated: boolean;
}

const sameValue = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** One change entry per field whose value differs, in the order of `fields`. */
export function diffChanges(
  type: string,
  fields: readonly string[],
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): Change[] {
  const changes: Change[] = [];
  for (const field of fields) {
    const [was, now] = [before[field] ?? null, after[field] ?? null];
    if (sameValue(was, now)) continue;
    const action = was === null ? 'created' : now === null ? 'deleted' : 'changed';
    changes.push({ type, action, field, before: was, after: now });
  }
  return changes;
}

/** What an update logs: a soft delete, a restore, or a change. */
export function updateActivity(wasDeleted: boolean, isDeleted: boolean): 'deleted' | 'restored' | 'updated' {
  return !wasDeleted && isDeleted ? 'deleted' : wasDeleted && !isDeleted ? 'restored' : 'updated';
}

export function detail(name: string | null, changes: Change[] | null = null): ActivityDetail {
  return { changes, trigger: null, name, short_id: null, type: null };
}

function toView(entry: ActivityEntryWithUser): ActivityView {
  const user = entry.is_system
    ? ({ first_name: 'System', email: null, is_system: true } as const)
    : entry.user_id === null
      ? null
      : { first_name: entry.user_first_name ?? '', email: entry.user_email };
  return {
    id: entry.id,
    user,
    activity: entry.activity,
    scope: entry.scope,
    item_id: entry.item_id,
    detail: entry.detail,
    created_at: entry.created_at,
    is_system: entry.is_system,
    was_impersonated: false,
  };
}

export function recordActivity(repository: ActivityLogRepository, activity: NewActivity): Promise<void> {
  return repository.insert({
    id: uuidv7(),
    organization_id: activity.organizationId,
    project_id: activity.projectId,
    user_id: activity.userId,
    is_system: activity.userId === null,
    scope: activity.scope,
    item_id: activity.itemId,
    activity: activity.activity,
    detail: activity.detail,
    created_at: nowIso(),
  });
}

/** One page (1-based) of the entries about an item, or about every item of a scope when itemId is null. */
export async function activityPage(
  repository: ActivityLogRepository,
  projectId: number,
  scope: string,
  itemId: string | null,
  page: { limit: number; page: number },
): Promise<{ total_count: number; results: ActivityView[] }> {
  const { count, rows } = await repository.listForItem(projectId, scope, itemId, {
    limit: page.limit,
    offset: (page.page - 1) * page.limit,
  });
  return { total_count: count, results: rows.map(toView) };
}
