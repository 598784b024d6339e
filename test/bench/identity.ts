import { randomUUID } from 'node:crypto';
import { sha256Hex } from '../../server/crypto';
import type { RunningServer } from '../../server/index';
import { measure, ok, type Result } from './measure';

// The identity core over real HTTP: JWT, scope resolution, API keys, refresh rotation and argon2id login, as
// ratios to GET /health in the same run.

export const BENCH_ADMIN = { email: 'bench@gatehouse.test', password: 'Throughput-Probe-2026' };
const json = { 'content-type': 'application/json' };

export async function login(api: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, password }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

export async function identityBench(server: RunningServer): Promise<Result[]> {
  const api = `${server.url}/api/v1`;
  const auth = { authorization: `Bearer ${await login(api, BENCH_ADMIN.email, BENCH_ADMIN.password)}` };
  const get =
    (name: string, path: string, headers: Record<string, string> = {}) =>
    () =>
      ok(name, fetch(`${api}${path}`, { headers }));

  const results: Result[] = [];
  results.push(await measure('GET /health (baseline)', 4000, 16, get('health', '/health')));
  results.push(await measure('GET /auth/me (JWT + user check)', 4000, 16, get('me', '/auth/me', auth)));
  results.push(
    await measure('GET /audit-logs/logs (page of 50)', 1000, 8, get('audit', '/audit-logs/logs', auth)),
  );
  // A partner technician's view: the scope resolver turns the partner association into its organizations.
  const partner = await login(api, 'riley.chen@northwind.demo', server.demo?.password ?? '');
  results.push(
    await measure(
      'GET /orgs/ (partner scope, JWT)',
      4000,
      16,
      get('orgs', '/orgs/', { authorization: `Bearer ${partner}` }),
    ),
  );
  // An integration's key: hash lookup, the hourly sliding window in SQLite, usage counted asynchronously.
  const apiKey = `svc_${'b'.repeat(32)}`;
  const now = new Date().toISOString();
  server.context.db
    .prepare(
      `INSERT INTO api_keys (id, org_id, name, key_hash, key_prefix, scopes, rate_limit, created_by, created_at, updated_at)
       VALUES (?, ?, 'Bench', ?, ?, '["organizations:read"]', 100000, 'bench', ?, ?)`,
    )
    .run(randomUUID(), server.demo!.enrollmentKey.orgId, sha256Hex(apiKey), apiKey.slice(0, 12), now, now);
  results.push(
    await measure(
      'GET /orgs/ (X-API-Key, sliding window)',
      4000,
      16,
      get('orgs by key', '/orgs/', { 'x-api-key': apiKey }),
    ),
  );
  // Each refresh rotates, so each worker keeps its own chain and always presents the token it was last given
  // (sharing one would be reuse, which revokes the family).
  const chains = await Promise.all(
    Array.from({ length: 8 }, async () => {
      const res = await fetch(`${api}/auth/login`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify(BENCH_ADMIN),
      });
      return ((await res.json()) as { refreshToken: string }).refreshToken;
    }),
  );
  results.push(
    await measure('POST /auth/refresh (rotation)', 2000, 8, async (_i, slot) => {
      const res = await fetch(`${api}/auth/refresh`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ refreshToken: chains[slot] }),
      });
      if (!res.ok) throw new Error(`refresh: HTTP ${res.status}`);
      chains[slot] = ((await res.json()) as { refreshToken: string }).refreshToken;
    }),
  );
  // Password login is argon2id-bound by design, and the limiter allows 10 per email per 15 minutes: the
  // administrator has used 9 above, so the one sample signs in the partner technician again.
  results.push(
    await measure('POST /auth/login (argon2id, 1 sample)', 1, 1, () =>
      ok(
        'login',
        fetch(`${api}/auth/login`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email: 'riley.chen@northwind.demo', password: server.demo?.password }),
        }),
      ),
    ),
  );
  return results;
}
