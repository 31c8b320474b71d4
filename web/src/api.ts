// Same-origin JSON requests to Hoglet. The session cookie rides along; non-GET requests carry the
// csrftoken cookie back in X-CSRFToken (Django's double-submit check, as PostHog's app does).
import { navigate } from './router';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly code: string | null = null,
    readonly attr: string | null = null,
    /** The parsed answer, for callers that read more than the detail (a failed query_status). */
    readonly body: unknown = null,
  ) {
    super(detail);
  }
}

export function cookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return null;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Pages outside the session (sign-in, shared) handle a 401 themselves. */
  redirectOn401?: boolean;
}

/** The login page, remembering where the user was going. */
export function toLogin(): void {
  const here = location.pathname + location.search;
  if (location.pathname === '/login') return;
  navigate(`/login?next=${encodeURIComponent(here)}`, true);
}

export async function api<T = any>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET') {
    const token = cookie('csrftoken');
    if (token) headers['X-CSRFToken'] = token;
  }
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'Hoglet could not be reached. Is the server running?');
  }
  const text = await response.text();
  let data: any = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (response.status === 401 && options.redirectOn401 !== false) toLogin();
  if (!response.ok) {
    // PostHog's error body: {type, code, detail, attr}; detail is written for people.
    const detail = typeof data?.detail === 'string' ? data.detail : `The request failed (${response.status}).`;
    throw new ApiError(response.status, detail, data?.code ?? null, data?.attr ?? null, data);
  }
  return data as T;
}

/** A query string from the defined values only. */
export function qs(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '' && value !== false) search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
