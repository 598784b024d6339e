// Over 400 lines: one scenario world shared by every case below (a split restarts it per file); to be split by
// describe block over a test/support world, as the devices and tenancy suites were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../server/crypto';
import { auditSettled, startServer, type ApiResponse, type TestServer } from '../support/server';
import { insertOrg, insertPartner } from '../support/seed';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from '../support/key-callers';

// /api-keys and X-API-Key authentication (spec 1: API key, its state table, Authentication §2 §3 §5 §6).
// The tenant tree and its callers are those of test/support/key-callers.ts.

let server: TestServer;
let ids: KeyCallerIds;
let tok: KeyCallerTokens;

beforeAll(async () => {
  server = await startServer();
  ({ ids, tok } = await seedKeyCallers(server));
});

afterAll(async () => {
  await server.dispose();
});

// ---- helpers ----------------------------------------------------------------------------------------------------

type Body = Record<string, unknown>;

const call = (method: string, path: string, token: string, body?: unknown) =>
  server.api.request(method, path, { token, ...(body !== undefined ? { body } : {}) });

/** A request authenticated with X-API-Key (and optionally a bearer token as well). */
const withKey = (key: string, path = '/api-keys/current', token?: string) =>
  server.api.request('GET', path, { headers: { 'x-api-key': key }, ...(token ? { token } : {}) });

async function createKey(body: Body, token = tok.system): Promise<{ id: string; key: string } & Body> {
  const res = await call('POST', '/api-keys', token, { name: 'Integration', ...body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const row = (id: string) =>
  server.context.db.prepare('SELECT * FROM api_keys WHERE id = ?').get(id) as Record<string, unknown>;

function expectError(res: ApiResponse, status: number, error: string, code?: string) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
  if (code) expect(res.body.code).toBe(code);
}

/** Usage is written on a later turn of the event loop: wait until the condition holds. */
async function eventually<T>(read: () => T, done: (value: T) => boolean, ms = 2000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 10));
  }
}

const auditRows = (resourceId: string) =>
  server.context.db
    .prepare('SELECT * FROM audit_logs WHERE resource_id = ? ORDER BY seq')
    .all(resourceId) as Array<Record<string, unknown>>;

// ---- management ---------------------------------------------------------------------------------------------------

describe('POST /api-keys', () => {
  it('creates an svc_ key shown once, stores only its SHA-256 hash and its first 12 characters', async () => {
    const res = await call('POST', '/api-keys', tok.system, { orgId: ids.a1, name: '  Backup sync  ' });
    expect(res.status).toBe(201);
    const key = res.body.key as string;
    expect(key).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      orgId: ids.a1,
      name: 'Backup sync',
      key,
      keyPrefix: key.slice(0, 12),
      scopes: [],
      expiresAt: null,
      rateLimit: 1000,
      createdBy: ids.adminId,
      createdAt: expect.any(String),
      status: 'active',
      lastUsedAt: null,
      usageCount: 0,
      warning: 'This key is shown only once. Store it securely.',
    });
    const stored = row(res.body.id);
    expect(stored).toMatchObject({
      key_hash: sha256Hex(key),
      key_prefix: key.slice(0, 12),
      status: 'active',
    });
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(JSON.stringify(res.body)).not.toContain(sha256Hex(key));
  });

  it('takes scopes, a future expiry and a rate limit; duplicate scopes are stored once', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const res = await call('POST', '/api-keys', tok.system, {
      orgId: ids.a1,
      name: 'Scoped',
      scopes: ['devices:read', 'pam:manage_policy', 'devices:read', '*'],
      expiresAt,
      rateLimit: 100000,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      scopes: ['devices:read', 'pam:manage_policy', '*'],
      expiresAt,
      rateLimit: 100000,
    });
    // An offset date-time is stored in UTC, so expiry comparisons are plain string comparisons.
    const offset = await call('POST', '/api-keys', tok.system, {
      orgId: ids.a1,
      name: 'Offset',
      expiresAt: '2999-01-01T12:00:00+02:00',
    });
    expect(offset.body.expiresAt).toBe('2999-01-01T10:00:00.000Z');
  });

  it.each([
    [{ orgId: undefined, name: 'x' }, 'orgId: orgId is required'],
    [{ orgId: 'nope', name: 'x' }, 'orgId: orgId must be a UUID'],
    [{ name: '' }, 'name: name must be 1-255 characters'],
    [{ name: '   ' }, 'name: name must be 1-255 characters'],
    [{ name: 'x'.repeat(256) }, 'name: name must be 1-255 characters'],
    [{ name: 'x', rateLimit: 0 }, 'rateLimit: rateLimit must be an integer between 1 and 100000'],
    [{ name: 'x', rateLimit: 100001 }, 'rateLimit: rateLimit must be an integer between 1 and 100000'],
    [{ name: 'x', rateLimit: 2.5 }, 'rateLimit: rateLimit must be an integer between 1 and 100000'],
    [{ name: 'x', rateLimit: '10' }, 'rateLimit: rateLimit must be an integer between 1 and 100000'],
    [{ name: 'x', scopes: 'devices:read' }, 'scopes: scopes must be an array of strings'],
    [{ name: 'x', scopes: ['devices'] }, 'scopes.0: each scope must have the form resource:action, or be *'],
    [
      { name: 'x', scopes: ['ok:read', 'devices:*'] },
      'scopes.1: each scope must have the form resource:action, or be *',
    ],
    [{ name: 'x', scopes: ['*:*'] }, 'scopes.0: each scope must have the form resource:action, or be *'],
    [{ name: 'x', expiresAt: 'tomorrow' }, 'expiresAt: expiresAt must be an ISO 8601 date-time'],
    [{ name: 'x', expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt: expiresAt must be in the future'],
  ])('refuses %j with 400 "%s"', async (body, message) => {
    const res = await call('POST', '/api-keys', tok.system, { orgId: ids.a1, ...body });
    expectError(res, 400, message, 'VALIDATION_ERROR');
  });

  it('refuses an unknown organization with 404', async () => {
    const res = await call('POST', '/api-keys', tok.system, {
      orgId: '00000000-0000-4000-8000-0000000000ff',
      name: 'x',
    });
    expectError(res, 404, 'Organization not found');
  });

  it('needs an MFA session (403 MFA_REQUIRED) and organizations:write (403 PERMISSION_DENIED)', async () => {
    const before = (server.context.db.prepare('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n;
    expectError(
      await call('POST', '/api-keys', tok.noMfa, { orgId: ids.a1, name: 'x' }),
      403,
      'MFA required',
      'MFA_REQUIRED',
    );
    expectError(
      await call('POST', '/api-keys', tok.orgTech, { orgId: ids.a1, name: 'x' }),
      403,
      'Insufficient permissions',
      'PERMISSION_DENIED',
    );
    expect((server.context.db.prepare('SELECT COUNT(*) AS n FROM api_keys').get() as { n: number }).n).toBe(
      before,
    );
    // Reading needs organizations:read only, no MFA.
    expect((await call('GET', '/api-keys', tok.noMfa)).status).toBe(200);
    expect((await call('GET', '/api-keys', tok.orgTech)).status).toBe(200);
  });

  it('cannot be reached with an API key: key management is for console users', async () => {
    const { key } = await createKey({ orgId: ids.a1, scopes: ['*'] });
    const res = await server.api.request('POST', '/api-keys', {
      headers: { 'x-api-key': key },
      body: { orgId: ids.a1, name: 'minted by a key' },
    });
    expectError(res, 401, 'Authentication required', 'AUTH_REQUIRED');
    expect((await withKey(key, '/api-keys')).status).toBe(401);
  });
});

describe('multi-tenant rules (spec 1 §6)', () => {
  it('an organization user manages keys of its own organization only', async () => {
    const own = await call('POST', '/api-keys', tok.orgAdmin, { orgId: ids.a1, name: 'Own' });
    expect(own.status).toBe(201);
    expect(own.body.orgId).toBe(ids.a1);
    expectError(
      await call('POST', '/api-keys', tok.orgAdmin, { orgId: ids.a2, name: 'Sibling' }),
      403,
      'Access to this organization denied',
    );
    expectError(
      await call('POST', '/api-keys', tok.orgAdmin, { orgId: ids.b1, name: 'Foreign' }),
      403,
      'Access to this organization denied',
    );
  });

  it('a partner user manages keys of the organizations it can access; others are 404', async () => {
    expect((await call('POST', '/api-keys', tok.partnerAll, { orgId: ids.a2, name: 'A2' })).status).toBe(201);
    expectError(
      await call('POST', '/api-keys', tok.partnerAll, { orgId: ids.b1, name: 'B1' }),
      404,
      'Organization not found',
    );
    expect((await call('POST', '/api-keys', tok.partnerSelected, { orgId: ids.a1, name: 'A1' })).status).toBe(
      201,
    );
    expectError(
      await call('POST', '/api-keys', tok.partnerSelected, { orgId: ids.a2, name: 'A2' }),
      404,
      'Organization not found',
    );
    expectError(
      await call('POST', '/api-keys', tok.partnerNone, { orgId: ids.a1, name: 'A1' }),
      404,
      'Organization not found',
    );
  });

  it('lists only keys in scope, and every key operation outside the scope is 404 "API key not found"', async () => {
    const a1 = await createKey({ orgId: ids.a1, name: 'iso-a1' });
    const a2 = await createKey({ orgId: ids.a2, name: 'iso-a2' });
    const b1 = await createKey({ orgId: ids.b1, name: 'iso-b1' });
    const listed = async (token: string) =>
      ((await call('GET', '/api-keys?limit=100', token)).body.data as Array<{ id: string; orgId: string }>)
        .filter((k) => [a1.id, a2.id, b1.id].includes(k.id))
        .map((k) => k.id)
        .sort();
    expect(await listed(tok.system)).toEqual([a1.id, a2.id, b1.id].sort());
    expect(await listed(tok.partnerAll)).toEqual([a1.id, a2.id].sort());
    expect(await listed(tok.partnerSelected)).toEqual([a1.id]);
    expect(await listed(tok.partnerNone)).toEqual([]);
    expect(await listed(tok.orgAdmin)).toEqual([a1.id]);
    expect(await listed(tok.orgAdminB)).toEqual([b1.id]);
    const none = await call('GET', '/api-keys', tok.partnerNone);
    expect(none.body).toEqual({ data: [], pagination: { page: 1, limit: 50, total: 0 } });

    const outside: Array<[string, string]> = [
      [tok.partnerAll, b1.id],
      [tok.partnerSelected, a2.id],
      [tok.partnerNone, a1.id],
      [tok.orgAdmin, a2.id],
      [tok.orgAdmin, b1.id],
      [tok.orgAdminB, a1.id],
    ];
    for (const [token, id] of outside) {
      expectError(await call('GET', `/api-keys/${id}`, token), 404, 'API key not found');
      expectError(
        await call('PATCH', `/api-keys/${id}`, token, { name: 'hijack' }),
        404,
        'API key not found',
      );
      expectError(await call('POST', `/api-keys/${id}/rotate`, token, {}), 404, 'API key not found');
      expectError(await call('DELETE', `/api-keys/${id}`, token), 404, 'API key not found');
    }
    for (const id of [a1.id, a2.id, b1.id]) expect(row(id)).toMatchObject({ status: 'active' });
    expect(row(b1.id).name).toBe('iso-b1');
    // Inside the scope, the same calls work.
    expect((await call('GET', `/api-keys/${a1.id}`, tok.partnerSelected)).status).toBe(200);
    expect((await call('GET', `/api-keys/${b1.id}`, tok.orgAdminB)).status).toBe(200);
  });

  it('filters by orgId and status; an orgId outside the scope is refused like any organization lookup', async () => {
    const a2 = await createKey({ orgId: ids.a2, name: 'filter-a2' });
    const revoked = await createKey({ orgId: ids.a2, name: 'filter-revoked' });
    await call('DELETE', `/api-keys/${revoked.id}`, tok.system);
    const byOrg = await call('GET', `/api-keys?orgId=${ids.a2}&limit=100`, tok.partnerAll);
    expect(byOrg.status).toBe(200);
    expect(new Set(byOrg.body.data.map((k: { orgId: string }) => k.orgId))).toEqual(new Set([ids.a2]));
    const active = await call('GET', `/api-keys?orgId=${ids.a2}&status=active&limit=100`, tok.system);
    const activeIds = active.body.data.map((k: { id: string }) => k.id);
    expect(activeIds).toContain(a2.id);
    expect(activeIds).not.toContain(revoked.id);
    const onlyRevoked = await call('GET', `/api-keys?orgId=${ids.a2}&status=revoked`, tok.system);
    expect(onlyRevoked.body.data.map((k: { id: string }) => k.id)).toEqual([revoked.id]);
    expect(onlyRevoked.body.data[0].status).toBe('revoked');

    expectError(
      await call('GET', `/api-keys?orgId=${ids.b1}`, tok.partnerAll),
      404,
      'Organization not found',
    );
    expectError(
      await call('GET', `/api-keys?orgId=${ids.a2}`, tok.partnerSelected),
      404,
      'Organization not found',
    );
    expectError(
      await call('GET', `/api-keys?orgId=${ids.a2}`, tok.orgAdmin),
      403,
      'Access to this organization denied',
    );
    expectError(
      await call('GET', '/api-keys?status=paused', tok.system),
      400,
      'status: status must be active, expired or revoked',
      'VALIDATION_ERROR',
    );
  });

  it('paginates newest first with clamped page and limit, and never returns a key or hash', async () => {
    const made = [];
    for (let i = 0; i < 3; i++)
      made.push(await createKey({ orgId: ids.b1, name: `page-${i}` }, tok.orgAdminB));
    const page1 = await call('GET', `/api-keys?orgId=${ids.b1}&limit=2&page=0`, tok.orgAdminB);
    expect(page1.body.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(page1.body.pagination.total).toBeGreaterThanOrEqual(3);
    expect(page1.body.data.map((k: { name: string }) => k.name)).toEqual(['page-2', 'page-1']);
    const page2 = await call('GET', `/api-keys?orgId=${ids.b1}&limit=2&page=2`, tok.orgAdminB);
    expect(page2.body.data[0].name).toBe('page-0');
    const big = await call('GET', '/api-keys?limit=5000', tok.system);
    expect(big.body.pagination.limit).toBe(100);
    const text = JSON.stringify([page1.body, page2.body, big.body]);
    for (const k of made) {
      expect(text).not.toContain(k.key);
      expect(text).not.toContain(sha256Hex(k.key));
    }
    expect(text).not.toMatch(/key_?hash/i);
    for (const entry of big.body.data) expect(entry).not.toHaveProperty('key');
  });
});

describe('GET, PATCH, DELETE and rotate', () => {
  it('GET /api-keys/:id returns metadata; unknown and malformed ids are 404', async () => {
    const k = await createKey({ orgId: ids.a1, name: 'Reader', scopes: ['devices:read'] });
    const res = await call('GET', `/api-keys/${k.id}`, tok.orgAdmin);
    expect(res.status).toBe(200);
    const { key: _key, warning: _warning, ...metadata } = k;
    expect(res.body).toEqual(metadata);
    expectError(
      await call('GET', '/api-keys/00000000-0000-4000-8000-000000000abc', tok.system),
      404,
      'API key not found',
    );
    expectError(await call('GET', '/api-keys/not-a-uuid', tok.system), 404, 'API key not found');
  });

  it('PATCH renames, replaces scopes and changes the rate limit of an active key', async () => {
    const k = await createKey({ orgId: ids.a1, name: 'Before', scopes: ['devices:read', 'alerts:read'] });
    const res = await call('PATCH', `/api-keys/${k.id}`, tok.orgAdmin, {
      name: 'After',
      scopes: ['sites:read'],
      rateLimit: 42,
      status: 'revoked', // not an updatable field: ignored
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: k.id,
      name: 'After',
      scopes: ['sites:read'],
      rateLimit: 42,
      status: 'active',
      keyPrefix: k.keyPrefix,
    });
    expect(res.body).not.toHaveProperty('key');
    expect(row(k.id)).toMatchObject({ name: 'After', scopes: '["sites:read"]', rate_limit: 42 });
    const partial = await call('PATCH', `/api-keys/${k.id}`, tok.orgAdmin, { rateLimit: 7 });
    expect(partial.body).toMatchObject({ name: 'After', scopes: ['sites:read'], rateLimit: 7 });
    const cleared = await call('PATCH', `/api-keys/${k.id}`, tok.orgAdmin, { scopes: [] });
    expect(cleared.body.scopes).toEqual([]);
    // The key itself still works after an update.
    expect((await withKey(k.key)).status).toBe(200);
  });

  it('PATCH with nothing recognised is 400 "No updates provided"; bad values are validation errors', async () => {
    const k = await createKey({ orgId: ids.a1 });
    expectError(await call('PATCH', `/api-keys/${k.id}`, tok.system, {}), 400, 'No updates provided');
    expectError(
      await call('PATCH', `/api-keys/${k.id}`, tok.system, {
        expiresAt: '2999-01-01T00:00:00Z',
        status: 'x',
      }),
      400,
      'No updates provided',
    );
    expectError(
      await call('PATCH', `/api-keys/${k.id}`, tok.system, { rateLimit: 0 }),
      400,
      'rateLimit: rateLimit must be an integer between 1 and 100000',
      'VALIDATION_ERROR',
    );
    expectError(
      await call('PATCH', `/api-keys/${k.id}`, tok.noMfa, { name: 'x' }),
      403,
      'MFA required',
      'MFA_REQUIRED',
    );
    expect(row(k.id).name).toBe('Integration');
  });

  it('DELETE revokes: status revoked, revoked_at set, record kept, the key refused at once, idempotent', async () => {
    const k = await createKey({ orgId: ids.a1, name: 'Doomed' });
    expect((await withKey(k.key)).status).toBe(200);
    const res = await call('DELETE', `/api-keys/${k.id}`, tok.orgAdmin);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    const stored = row(k.id);
    expect(stored).toMatchObject({ status: 'revoked', name: 'Doomed' });
    expect(stored.revoked_at).toEqual(expect.any(String));
    expectError(await withKey(k.key), 401, 'API key is revoked');
    const read = await call('GET', `/api-keys/${k.id}`, tok.orgAdmin);
    expect(read.body).toMatchObject({ id: k.id, status: 'revoked' });
    const again = await call('DELETE', `/api-keys/${k.id}`, tok.orgAdmin);
    expect(again.body).toEqual({ success: true });
    expect(row(k.id).revoked_at).toBe(stored.revoked_at);
    expectError(
      await call('PATCH', `/api-keys/${k.id}`, tok.orgAdmin, { name: 'x' }),
      400,
      'Cannot update revoked API key',
    );
    expectError(
      await call('POST', `/api-keys/${k.id}/rotate`, tok.orgAdmin, {}),
      400,
      'Cannot update revoked API key',
    );
    expectError(await call('DELETE', `/api-keys/${k.id}`, tok.noMfa), 403, 'MFA required');
  });

  it('expired keys cannot be updated or rotated, and read as expired before their next use', async () => {
    const k = await createKey({
      orgId: ids.a1,
      name: 'Old',
      expiresAt: new Date(Date.now() + 60_000).toISOString(),
    });
    server.context.db
      .prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), k.id);
    const read = await call('GET', `/api-keys/${k.id}`, tok.system);
    expect(read.body.status).toBe('expired');
    const listed = await call('GET', `/api-keys?orgId=${ids.a1}&status=expired&limit=100`, tok.system);
    expect(listed.body.data.map((x: { id: string }) => x.id)).toContain(k.id);
    const active = await call('GET', `/api-keys?orgId=${ids.a1}&status=active&limit=100`, tok.system);
    expect(active.body.data.map((x: { id: string }) => x.id)).not.toContain(k.id);
    expectError(
      await call('PATCH', `/api-keys/${k.id}`, tok.system, { name: 'x' }),
      400,
      'Cannot update revoked API key',
    );
    expect(row(k.id)).toMatchObject({ status: 'expired', name: 'Old' });
    expectError(
      await call('POST', `/api-keys/${k.id}/rotate`, tok.system, {}),
      400,
      'Cannot update revoked API key',
    );
    // Expired keys may still be revoked, for good.
    expect((await call('DELETE', `/api-keys/${k.id}`, tok.system)).body).toEqual({ success: true });
    expect(row(k.id).status).toBe('revoked');
  });

  it('rotate issues a new key, invalidates the old one at once and resets usage; the rest is kept', async () => {
    const expiresAt = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const k = await createKey({
      orgId: ids.a1,
      name: 'Rotor',
      scopes: ['sites:read'],
      rateLimit: 500,
      expiresAt,
    });
    for (let i = 0; i < 3; i++) expect((await withKey(k.key)).status).toBe(200);
    await eventually(
      () => row(k.id).usage_count as number,
      (n) => n === 3,
    );
    expect(row(k.id).last_used_at).toEqual(expect.any(String));

    const res = await call('POST', `/api-keys/${k.id}/rotate`, tok.orgAdmin, {});
    expect(res.status).toBe(200);
    const fresh = res.body.key as string;
    expect(fresh).toMatch(/^svc_[A-Za-z0-9_-]{32}$/);
    expect(fresh).not.toBe(k.key);
    expect(res.body).toMatchObject({
      id: k.id,
      orgId: ids.a1,
      name: 'Rotor',
      scopes: ['sites:read'],
      rateLimit: 500,
      expiresAt,
      status: 'active',
      keyPrefix: fresh.slice(0, 12),
      usageCount: 0,
      lastUsedAt: null,
      createdAt: k.createdAt,
    });
    expect(res.body).not.toHaveProperty('warning');
    expect(row(k.id)).toMatchObject({ key_hash: sha256Hex(fresh), usage_count: 0, last_used_at: null });

    expectError(await withKey(k.key), 401, 'Invalid API key');
    const current = await withKey(fresh);
    expect(current.status).toBe(200);
    expect(current.body.id).toBe(k.id);
    await eventually(
      () => row(k.id).usage_count as number,
      (n) => n === 1,
    );
    expect(row(k.id).usage_count).toBe(1);
  });

  it('rotation discards uses of the old key that were counted but not yet written', async () => {
    const k = await createKey({ orgId: ids.a1, name: 'Race' });
    // Authenticate directly, then rotate in the same turn of the event loop, before the usage flush runs.
    const req = { get: (h: string) => (h.toLowerCase() === 'x-api-key' ? k.key : undefined), socket: {} };
    const res = { set: () => undefined };
    server.context.apiKeys.authenticate(req as never, res as never);
    server.context.apiKeys.authenticate(req as never, res as never);
    const rotated = await call('POST', `/api-keys/${k.id}/rotate`, tok.system, {});
    expect(rotated.status).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    server.context.apiKeys.flush();
    expect(row(k.id)).toMatchObject({ usage_count: 0, last_used_at: null });
  });

  it('records api_key.create, update, rotate and revoke with the key organization, actor, IP and user agent', async () => {
    const k = await createKey({ orgId: ids.a2, name: 'Audited', scopes: ['devices:read'] }, tok.partnerAll);
    await call('PATCH', `/api-keys/${k.id}`, tok.partnerAll, { name: 'Audited 2', rateLimit: 9 });
    const rotated = await call('POST', `/api-keys/${k.id}/rotate`, tok.partnerAll, {});
    await call('DELETE', `/api-keys/${k.id}`, tok.partnerAll);
    await auditSettled(server);
    const entries = auditRows(k.id);
    expect(entries.map((e) => e.action)).toEqual([
      'api_key.create',
      'api_key.update',
      'api_key.rotate',
      'api_key.revoke',
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({
        org_id: ids.a2,
        actor_type: 'user',
        actor_email: 'all@p1.test',
        resource_type: 'api_key',
        ip_address: '127.0.0.1',
        result: 'success',
      });
      expect(e.user_agent).toEqual(expect.any(String));
      for (const secret of [k.key, rotated.body.key as string]) {
        expect(e.details).not.toContain(secret);
        expect(e.details).not.toContain(sha256Hex(secret));
      }
    }
    expect(JSON.parse(entries[1]!.details as string)).toMatchObject({ changedFields: ['name', 'rateLimit'] });
    expect(entries[3]!.resource_name).toBe('Audited 2');
  });
});

// ---- X-API-Key authentication -------------------------------------------------------------------------------------

describe('X-API-Key authentication', () => {
  it('GET /api-keys/current describes the calling key', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const k = await createKey({ orgId: ids.a1, name: 'Self', scopes: [], rateLimit: 77, expiresAt });
    const res = await withKey(k.key);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: k.id,
      name: 'Self',
      orgId: ids.a1,
      scopes: [],
      rateLimit: 77,
      expiresAt,
      status: 'active',
      keyPrefix: k.key.slice(0, 12),
    });
    expect(res.body).not.toHaveProperty('key');
    expect(JSON.stringify(res.body)).not.toContain(sha256Hex(k.key));
  });

  it('refuses, in the spec order: missing header, bad prefix, unknown key, revoked, expired', async () => {
    expectError(await server.api.get('/api-keys/current'), 401, 'Missing X-API-Key header');
    // A bearer token is no substitute on a key-only route.
    expectError(await server.api.get('/api-keys/current', tok.system), 401, 'Missing X-API-Key header');
    expectError(await withKey('sk_live_abcdef'), 401, 'Invalid API key format');
    expectError(await withKey(`svc_${'A'.repeat(32)}`), 401, 'Invalid API key');
    const revoked = await createKey({ orgId: ids.a1 });
    await call('DELETE', `/api-keys/${revoked.id}`, tok.system);
    expectError(await withKey(revoked.key), 401, 'API key is revoked');
    const stale = await createKey({ orgId: ids.a1 });
    server.context.db.prepare("UPDATE api_keys SET status = 'expired' WHERE id = ?").run(stale.id);
    expectError(await withKey(stale.key), 401, 'API key is expired');
  });

  it('an expiresAt in the past is written as expired on the next attempt and refused', async () => {
    const k = await createKey({ orgId: ids.a1, expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await withKey(k.key)).status).toBe(200);
    server.context.db
      .prepare('UPDATE api_keys SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1).toISOString(), k.id);
    expect(row(k.id).status).toBe('active');
    expectError(await withKey(k.key), 401, 'API key is expired');
    expect(row(k.id).status).toBe('expired');
    expectError(await withKey(k.key), 401, 'API key is expired');
  });

  it('enforces the hourly sliding window with X-RateLimit-* headers and 429 Retry-After', async () => {
    const k = await createKey({ orgId: ids.a1, name: 'Throttled', rateLimit: 3 });
    const hourEnd = Math.ceil((Date.now() + 1) / 3_600_000) * 3600;
    for (const remaining of [2, 1, 0]) {
      const res = await withKey(k.key);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(remaining));
      const reset = Number(res.headers.get('x-ratelimit-reset'));
      expect(reset).toBeGreaterThan(Date.now() / 1000);
      expect(reset).toBeLessThanOrEqual(hourEnd + 3600);
    }
    const refused = await withKey(k.key);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe('Rate limit exceeded');
    const retryAfter = Number(refused.headers.get('retry-after'));
    // Three hits fill this hour: the wait runs to its end, then until one of them has slid out (a third of
    // the next hour), so a retry at that moment is admitted.
    const untilHourEnd = Number(refused.headers.get('x-ratelimit-reset')) - Date.now() / 1000;
    expect(retryAfter).toBeGreaterThanOrEqual(Math.floor(untilHourEnd + 1200) - 1);
    expect(retryAfter).toBeLessThanOrEqual(Math.ceil(untilHourEnd + 1200) + 1);
    expect(refused.body.retryAfterSeconds).toBe(retryAfter);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('x-ratelimit-reset')).toEqual(expect.stringMatching(/^\d+$/));
    expect((await withKey(k.key)).status).toBe(429);
    // Refused requests are not uses: three were admitted, three are counted.
    await eventually(
      () => row(k.id).usage_count as number,
      (n) => n === 3,
    );
    await new Promise((r) => setTimeout(r, 30));
    expect(row(k.id).usage_count).toBe(3);
    // Raising the limit takes effect at once: the window is kept, the budget grows.
    await call('PATCH', `/api-keys/${k.id}`, tok.system, { rateLimit: 5 });
    const more = await withKey(k.key);
    expect(more.status).toBe(200);
    expect(more.headers.get('x-ratelimit-limit')).toBe('5');
  });

  it('updates lastUsedAt and usageCount asynchronously', async () => {
    const k = await createKey({ orgId: ids.a1, name: 'Counted' });
    const before = Date.now();
    await withKey(k.key);
    await withKey(k.key);
    const stored = await eventually(
      () => row(k.id),
      (r) => r.usage_count === 2,
    );
    expect(stored.usage_count).toBe(2);
    expect(Date.parse(stored.last_used_at as string)).toBeGreaterThanOrEqual(before - 5);
    const api = await call('GET', `/api-keys/${k.id}`, tok.system);
    expect(api.body).toMatchObject({ usageCount: 2, lastUsedAt: stored.last_used_at });
  });

  it('a partner that is not active blocks its keys (partner guard)', async () => {
    const p = insertPartner(server, { name: 'Dormant MSP' });
    const org = insertOrg(server, p.partnerId, 'Dormant Org');
    const k = await createKey({ orgId: org });
    expect((await withKey(k.key)).status).toBe(200);
    server.context.db.prepare("UPDATE partners SET status = 'suspended' WHERE id = ?").run(p.partnerId);
    const res = await withKey(k.key);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PARTNER_INACTIVE');
  });

  it('a key of a deleted organization stops working', async () => {
    const org = insertOrg(server, ids.p2, 'Short Lived');
    const k = await createKey({ orgId: org });
    expect((await withKey(k.key)).status).toBe(200);
    server.context.db
      .prepare('UPDATE organizations SET deleted_at = ? WHERE id = ?')
      .run(new Date().toISOString(), org);
    expectError(await withKey(k.key), 401, 'Invalid API key');
  });
});

// Dual authentication and scope checks run against the tenancy routes that accept keys: GET /orgs/ (needs
// organizations:read) and GET /orgs/sites (needs sites:read).
describe('scopes and dual authentication on user_or_key routes', () => {
  const orgIds = (res: ApiResponse) => (res.body.data as Array<{ id: string }>).map((o) => o.id).sort();

  it('a key reaches a guarded route only with a matching scope or *; [] reaches unguarded routes only', async () => {
    const empty = await createKey({ orgId: ids.a1, scopes: [] });
    const other = await createKey({ orgId: ids.a1, scopes: ['devices:read', 'sites:read'] });
    const exact = await createKey({ orgId: ids.a1, scopes: ['organizations:read'] });
    const star = await createKey({ orgId: ids.a1, scopes: ['*'] });

    for (const k of [empty, other]) {
      const res = await withKey(k.key, '/orgs/');
      expectError(res, 403, 'API key does not have required permissions');
      // Still an authenticated response: the window headers are there.
      expect(res.headers.get('x-ratelimit-limit')).toBe('1000');
    }
    expect((await withKey(empty.key)).status).toBe(200);
    for (const k of [exact, star]) {
      const res = await withKey(k.key, '/orgs/');
      expect(res.status).toBe(200);
      expect(orgIds(res)).toEqual([ids.a1]);
      expect(res.headers.get('x-ratelimit-remaining')).toEqual(expect.stringMatching(/^\d+$/));
    }
    expect((await withKey(other.key, '/orgs/sites')).status).toBe(200);
    expectError(await withKey(exact.key, '/orgs/sites'), 403, 'API key does not have required permissions');
  });

  it("a key sees its own organization's data only", async () => {
    const star = await createKey({ orgId: ids.a1, scopes: ['*'] });
    const sites = await withKey(star.key, '/orgs/sites');
    expect(sites.status).toBe(200);
    const siteIds = (sites.body.data as Array<{ id: string; orgId: string }>).map((s) => s.id);
    expect(siteIds).toContain(ids.siteA1);
    expect(siteIds).not.toContain(ids.siteB1);
    for (const s of sites.body.data as Array<{ orgId: string }>) expect(s.orgId).toBe(ids.a1);
  });

  it('with both headers the API key wins', async () => {
    const star = await createKey({ orgId: ids.b1, scopes: ['*'] });
    const asUser = await server.api.get('/orgs/', tok.system);
    expect(asUser.status).toBe(200);
    expect(orgIds(asUser)).toEqual(expect.arrayContaining([ids.a1, ids.a2, ids.b1]));
    expect(asUser.headers.get('x-ratelimit-limit')).toBeNull();

    const both = await withKey(star.key, '/orgs/', tok.system);
    expect(both.status).toBe(200);
    expect(orgIds(both)).toEqual([ids.b1]);
    expect(both.headers.get('x-ratelimit-limit')).toBe('1000');

    // A valid session does not rescue a bad key.
    await call('DELETE', `/api-keys/${star.id}`, tok.system);
    expectError(await withKey(star.key, '/orgs/', tok.system), 401, 'API key is revoked');
    expectError(await withKey('not-a-key', '/orgs/', tok.system), 401, 'Invalid API key format');
    // An empty X-API-Key header still counts as a key attempt.
    expectError(
      await server.api.request('GET', '/orgs/', { token: tok.system, headers: { 'x-api-key': '' } }),
      401,
      'Missing X-API-Key header',
    );
  });
});
