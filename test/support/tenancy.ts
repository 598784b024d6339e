import { auditSettled, type TestServer } from './server';

// Shared by the tenancy suites (test/integration/tenancy-*.test.ts): the trusted-proxy environment, reading the
// audit entries of a write, the HTTP verbs the suites use, and resetting the per-IP sign-in limits.

export const TRUSTED_PROXY_ENV = { TRUST_PROXY_HEADERS: 'true', TRUSTED_PROXY_CIDRS: '127.0.0.1/32' };

export interface AuditRow {
  org_id: string | null;
  actor_type: string;
  actor_id: string;
  action: string;
  resource_type: string;
  resource_id: string | null;
  details: string;
}

export async function auditOf(server: TestServer, action: string, resourceId: string) {
  await auditSettled(server);
  const rows = server.context.db
    .prepare('SELECT * FROM audit_logs WHERE action = ? AND resource_id = ? ORDER BY seq')
    .all(action, resourceId) as AuditRow[];
  return rows.map((r) => ({ ...r, details: JSON.parse(r.details) as Record<string, unknown> }));
}

export const patch = (
  server: TestServer,
  path: string,
  body: unknown,
  token: string,
  headers?: Record<string, string>,
) => server.api.request('PATCH', path, { body, token, headers });
export const del = (server: TestServer, path: string, token: string) =>
  server.api.request('DELETE', path, { token });
export const withKey = (server: TestServer, method: string, path: string, key: string, body?: unknown) =>
  server.api.request(method, path, { body, headers: { 'x-api-key': key } });

/** Login and MFA limits count per IP; these suites sign in many users from 127.0.0.1. */
export function resetRateLimits(server: TestServer) {
  server.context.db.prepare('DELETE FROM rate_limits').run();
}
