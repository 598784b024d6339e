// The one HTTP client of the console. Same origin, JSON in and out, one error type.
// Authenticated calls carry the in-memory access token; a 401 triggers one silent refresh and one retry.

import type { ApiErrorBody, TokenPair } from '../../../../server/contract';
import { ApiError } from '../errors';

export { ApiError, errorMessage } from '../errors';

export const API_BASE = '/api/v1';

const CSRF_COOKIE = 'service_csrf_token';
const CSRF_HEADER = 'x-service-csrf';

/** 401 codes that answer the request itself (wrong code, step-up needed), not an expired session. */
const NON_SESSION_401_CODES = new Set([
  'INVALID_MFA_CODE',
  'MFA_SESSION_EXPIRED',
  'INVALID_CREDENTIALS',
  'reauth_required',
  'reauth_failed',
  'assertion_failed',
]);

/** How the client reaches the session without importing the session store (which imports the client). */
export interface AuthBinding {
  getAccessToken(): string | null;
  /** Refresh the session. Never throws. */
  refresh(): Promise<'ok' | 'rejected' | 'unreachable'>;
  /** Called when an authenticated call is rejected and refresh could not fix it. */
  onUnauthorized(): void;
}

let binding: AuthBinding | null = null;

export function bindAuth(next: AuthBinding): void {
  binding = next;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Send the Bearer token (default true). */
  auth?: boolean;
  /** On a session 401, refresh once and retry (default true for authenticated calls). */
  retryOnUnauthorized?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Explicit token, e.g. right after sign-in before the store has it. */
  token?: string;
}

export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return part.slice(eq + 1).trim();
      }
    }
  }
  return null;
}

function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  return (
    typeof value === 'object' && value !== null && typeof (value as { error?: unknown }).error === 'string'
  );
}

async function toApiError(res: Response): Promise<ApiError> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const retryAfterSeconds = parseRetryAfter(res.headers.get('retry-after'));
  if (isErrorBody(body)) {
    const code = typeof body.code === 'string' ? body.code : undefined;
    return new ApiError(res.status, body.error, code, { retryAfterSeconds, body });
  }
  const fallback = res.status >= 500 ? 'The server ran into a problem' : `Request failed (${res.status})`;
  return new ApiError(res.status, fallback, undefined, { retryAfterSeconds });
}

async function send(path: string, options: RequestOptions, token: string | null): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (token) headers.authorization = `Bearer ${token}`;
  try {
    return await fetch(`${API_BASE}${path}`, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body,
      credentials: 'same-origin',
      signal: options.signal,
      cache: 'no-store',
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'Cannot reach the Gatehouse server. Check that it is running.', 'NETWORK_ERROR');
  }
}

async function parse<T>(res: Response): Promise<T> {
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  if (!text) return undefined as T;
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ApiError(res.status, 'The server sent a response the console could not read', 'BAD_RESPONSE');
  }
}

/** Call the API. Throws ApiError for any non-2xx answer or network failure. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return parse<T>(await apiResponse(path, options));
}

/**
 * Call the API and hand back the successful response unread, for a body that is not one JSON value (a streamed
 * export read chunk by chunk): the same token, refresh-and-retry and errors as `api`.
 */
export async function apiResponse(path: string, options: RequestOptions = {}): Promise<Response> {
  const useAuth = options.auth ?? true;
  const token = useAuth ? (options.token ?? binding?.getAccessToken() ?? null) : null;
  let res = await send(path, options, token);

  if (res.status === 401 && useAuth && binding && (options.retryOnUnauthorized ?? true)) {
    const err = await toApiError(res.clone());
    if (err.code && NON_SESSION_401_CODES.has(err.code)) throw err;
    const outcome = await binding.refresh();
    if (outcome === 'unreachable') {
      throw new ApiError(0, 'Cannot reach the Gatehouse server. Check that it is running.', 'NETWORK_ERROR');
    }
    const next = outcome === 'ok' ? binding.getAccessToken() : null;
    if (!next) {
      binding.onUnauthorized();
      throw err;
    }
    res = await send(path, options, next);
    if (res.status === 401) {
      const again = await toApiError(res);
      if (!again.code || !NON_SESSION_401_CODES.has(again.code)) binding.onUnauthorized();
      throw again;
    }
  }

  if (!res.ok) throw await toApiError(res);
  return res;
}

/**
 * Cookie-mode refresh: the refresh token travels in the HTTP-only cookie, the CSRF value from the readable
 * cookie goes in a header. The server rotates both cookies.
 */
export async function refreshWithCookie(): Promise<TokenPair> {
  const csrf = readCookie(CSRF_COOKIE);
  const headers: Record<string, string> = {};
  if (csrf) headers[CSRF_HEADER] = csrf;
  // Bounded: refreshes are serialized across tabs, so a hung one must not hold the others up.
  return api<TokenPair>('/auth/refresh', {
    method: 'POST',
    body: {},
    auth: false,
    headers,
    signal: AbortSignal.timeout(15_000),
  });
}
