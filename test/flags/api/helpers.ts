// The flags API over a real app: requests as a user's key, and the activity of a flag.
import { expect } from 'vitest';
import type { Credentials, TestApp } from '../../helpers/app.js';

export interface FlagsClient {
  post(body: unknown, who?: Credentials): Promise<{ status: number; body: any }>;
  patch(id: number, body: unknown, who?: Credentials): Promise<{ status: number; body: any }>;
  get(path: string, who?: Credentials): Promise<{ status: number; body: any }>;
  /** Creates a flag and expects the 201. */
  create(body: Record<string, unknown>, who?: Credentials): Promise<any>;
}

export function flagsClient(t: TestApp, owner: () => Credentials): FlagsClient {
  const base = (who: Credentials) => `/api/projects/${who.projectId}/feature_flags`;
  const send = async (method: 'GET' | 'POST' | 'PATCH', url: string, who: Credentials, payload?: unknown) => {
    const res = await t.request(who.key, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
    return { status: res.statusCode, body: res.body === '' ? null : res.json() };
  };
  const client: FlagsClient = {
    post: (body, who = owner()) => send('POST', `${base(who)}/`, who, body),
    patch: (id, body, who = owner()) => send('PATCH', `${base(who)}/${id}/`, who, body),
    get: (path, who = owner()) => send('GET', `${base(who)}/${path}`, who),
    async create(body, who = owner()) {
      const res = await client.post(body, who);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body;
    },
  };
  return client;
}

/** PostHog's error body for a validation error. */
export const validation = (detail: string, attr: string | null, code = 'invalid_input') => ({ type: 'validation_error', code, detail, attr });
