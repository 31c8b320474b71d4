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
  if (res.statusCode !== 201) throw new Error(`creating flag ${spec.key}: ${res.statusCode} ${res.body}`);
  const body = res.json();
  return { id: body.id, key: body.key, version: body.version };
}

export async function updateFlag(t: TestApp, who: Credentials, id: number, changes: Record<string, unknown>): Promise<void> {
  const res = await t.request(who.key, { method: 'PATCH', url: `/api/projects/${who.projectId}/feature_flags/${id}/`, payload: changes });
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
