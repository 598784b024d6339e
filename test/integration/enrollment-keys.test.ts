import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connection';
import { hashEnrollmentKey, redeemEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import { auditSettled, startServer, type ApiResponse, type TestServer } from '../support/server';
import { insertOrg, insertPartner, insertSite, mfaToken } from '../support/seed';
import { seedKeyCallers, type KeyCallerIds, type KeyCallerTokens } from '../support/key-callers';

// /enrollment-keys (spec 1: Enrollment key, Authentication §6) and the redemption used by agent enrollment.
// The tenant tree and its callers are those of the API key tests (test/support/key-callers.ts), plus a site in A2.

let server: TestServer;
let ids: KeyCallerIds & { siteA2: string };
let tok: KeyCallerTokens;

beforeAll(async () => {
  server = await startServer();
  const seeded = await seedKeyCallers(server);
  tok = seeded.tok;
  ids = { ...seeded.ids, siteA2: insertSite(server, seeded.ids.a2, 'Alpha Two HQ') };
});

afterAll(async () => {
  await server.dispose();
});

type Body = Record<string, unknown>;

const call = (method: string, path: string, token: string, body?: unknown) =>
  server.api.request(method, path, { token, ...(body !== undefined ? { body } : {}) });

async function createKey(body: Body, token = tok.system): Promise<{ id: string; key: string } & Body> {
  const res = await call('POST', '/enrollment-keys', token, { name: 'Rollout', ...body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const row = (id: string) =>
  server.context.db.prepare('SELECT * FROM enrollment_keys WHERE id = ?').get(id) as
    Record<string, unknown> | undefined;

function expectError(res: ApiResponse, status: number, error: string, code?: string) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
  if (code) expect(res.body.code).toBe(code);
}

const redeem = (key: string) => redeemEnrollmentKey(server.context, key);

describe('POST /enrollment-keys', () => {
  it('creates a 64-hex key shown once, stored only as an HMAC-SHA256 with the server pepper', async () => {
    const before = Date.now();
    const res = await call('POST', '/enrollment-keys', tok.system, { orgId: ids.a1, name: ' Wave 1 ' });
    expect(res.status).toBe(201);
    const key = res.body.key as string;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      orgId: ids.a1,
      siteId: null,
      name: 'Wave 1',
      usageCount: 0,
      maxUsage: 1,
      expiresAt: expect.any(String),
      createdBy: ids.adminId,
      createdAt: expect.any(String),
      expired: false,
      exhausted: false,
      key,
    });
    // Default lifetime: ENROLLMENT_KEY_DEFAULT_TTL_MINUTES, 60 minutes.
    const ttl = Date.parse(res.body.expiresAt) - before;
    expect(ttl).toBeGreaterThanOrEqual(60 * 60_000 - 1000);
    expect(ttl).toBeLessThanOrEqual(60 * 60_000 + 5000);
    const stored = row(res.body.id)!;
    const expected = createHmac('sha256', server.context.enrollmentKeyPepper).update(key).digest('hex');
    expect(stored.key_hash).toBe(expected);
    expect(hashEnrollmentKey(server.context.enrollmentKeyPepper, key)).toBe(expected);
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(JSON.stringify(res.body)).not.toContain(expected);
  });

  it('takes a site of the organization, maxUsage and a future expiry', async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const res = await call('POST', '/enrollment-keys', tok.partnerAll, {
      orgId: ids.a2,
      siteId: ids.siteA2,
      name: 'Branch rollout',
      maxUsage: 100000,
      expiresAt,
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ orgId: ids.a2, siteId: ids.siteA2, maxUsage: 100000, expiresAt });
  });

  it('infers orgId for an organization user; partner and system callers must pass it', async () => {
    const inferred = await call('POST', '/enrollment-keys', tok.orgAdmin, { name: 'Mine' });
    expect(inferred.status).toBe(201);
    expect(inferred.body).toMatchObject({ orgId: ids.a1, createdBy: ids.orgAdminId });
    const explicit = await call('POST', '/enrollment-keys', tok.orgAdmin, {
      orgId: ids.a1,
      name: 'Mine too',
    });
    expect(explicit.status).toBe(201);
    expectError(
      await call('POST', '/enrollment-keys', tok.partnerAll, { name: 'x' }),
      400,
      'orgId is required for partner scope',
    );
    expectError(
      await call('POST', '/enrollment-keys', tok.system, { name: 'x' }),
      400,
      'orgId is required for system scope',
    );
  });

  it('keeps every caller inside its scope', async () => {
    expectError(
      await call('POST', '/enrollment-keys', tok.orgAdmin, { orgId: ids.a2, name: 'x' }),
      403,
      'Access to this organization denied',
    );
    expectError(
      await call('POST', '/enrollment-keys', tok.orgAdmin, { orgId: ids.b1, name: 'x' }),
      403,
      'Access to this organization denied',
    );
    expectError(
      await call('POST', '/enrollment-keys', tok.partnerAll, { orgId: ids.b1, name: 'x' }),
      404,
      'Organization not found',
    );
    expectError(
      await call('POST', '/enrollment-keys', tok.partnerSelected, { orgId: ids.a2, name: 'x' }),
      404,
      'Organization not found',
    );
    expectError(
      await call('POST', '/enrollment-keys', tok.partnerNone, { orgId: ids.a1, name: 'x' }),
      404,
      'Organization not found',
    );
    expect(
      (await call('POST', '/enrollment-keys', tok.partnerSelected, { orgId: ids.a1, name: 'ok' })).status,
    ).toBe(201);
    expect((await call('POST', '/enrollment-keys', tok.system, { orgId: ids.b1, name: 'ok' })).status).toBe(
      201,
    );
  });

  it('refuses a site outside the organization, or no site at all, with 400', async () => {
    for (const siteId of [ids.siteB1, ids.siteA2, '00000000-0000-4000-8000-0000000000aa']) {
      expectError(
        await call('POST', '/enrollment-keys', tok.system, { orgId: ids.a1, siteId, name: 'x' }),
        400,
        'siteId must be a site of the organization',
      );
    }
    // The organization user's inferred organization is the one the site must belong to.
    expectError(
      await call('POST', '/enrollment-keys', tok.orgAdmin, { siteId: ids.siteB1, name: 'x' }),
      400,
      'siteId must be a site of the organization',
    );
    const ok = await call('POST', '/enrollment-keys', tok.orgAdmin, { siteId: ids.siteA1, name: 'x' });
    expect(ok.body.siteId).toBe(ids.siteA1);
  });

  it.each([
    [{ name: undefined }, 'name: name is required'],
    [{ name: '' }, 'name: name must be 1-255 characters'],
    [{ name: 'x'.repeat(256) }, 'name: name must be 1-255 characters'],
    [{ maxUsage: 0 }, 'maxUsage: maxUsage must be an integer between 1 and 100000'],
    [{ maxUsage: 100001 }, 'maxUsage: maxUsage must be an integer between 1 and 100000'],
    [{ maxUsage: 1.5 }, 'maxUsage: maxUsage must be an integer between 1 and 100000'],
    [{ maxUsage: null }, 'maxUsage: maxUsage must be an integer between 1 and 100000'],
    [{ expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt: expiresAt must be in the future'],
    [{ expiresAt: 'soon' }, 'expiresAt: expiresAt must be an ISO 8601 date-time'],
    [{ orgId: 'abc' }, 'orgId: orgId must be a UUID'],
    [{ siteId: 'abc' }, 'siteId: siteId must be a UUID'],
  ])('refuses %j with 400 "%s"', async (body, message) => {
    const res = await call('POST', '/enrollment-keys', tok.system, { orgId: ids.a1, name: 'x', ...body });
    expectError(res, 400, message, 'VALIDATION_ERROR');
  });

  it('needs an MFA session and organizations:write', async () => {
    expectError(
      await call('POST', '/enrollment-keys', tok.noMfa, { name: 'x' }),
      403,
      'Multi-factor authentication required for this action',
      'MFA_REQUIRED',
    );
    expectError(
      await call('POST', '/enrollment-keys', tok.orgTech, { name: 'x' }),
      403,
      'Insufficient permissions',
      'PERMISSION_DENIED',
    );
    expect((await call('GET', '/enrollment-keys', tok.noMfa)).status).toBe(200);
    expect((await call('GET', '/enrollment-keys', tok.orgTech)).status).toBe(200);
    expectError(await server.api.get('/enrollment-keys'), 401, 'Authentication required', 'AUTH_REQUIRED');
  });
});

describe('reading enrollment keys', () => {
  it('lists keys in scope with derived expired/exhausted, filters, and never the raw key', async () => {
    const live = await createKey({ orgId: ids.a2, name: 'live', maxUsage: 2 });
    const old = await createKey({ orgId: ids.a2, name: 'old' });
    const used = await createKey({ orgId: ids.a2, name: 'used', maxUsage: 1 });
    server.context.db
      .prepare('UPDATE enrollment_keys SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), old.id);
    expect(redeem(used.key).ok).toBe(true);

    const all = await call('GET', `/enrollment-keys?orgId=${ids.a2}&limit=100`, tok.partnerAll);
    expect(all.status).toBe(200);
    const byName = Object.fromEntries(
      (all.body.data as Array<{ name: string }>).map((k) => [k.name, k]),
    ) as Record<string, Body>;
    expect(byName.live).toMatchObject({ expired: false, exhausted: false, usageCount: 0, maxUsage: 2 });
    expect(byName.old).toMatchObject({ expired: true, exhausted: false });
    expect(byName.used).toMatchObject({ expired: false, exhausted: true, usageCount: 1 });
    const text = JSON.stringify(all.body);
    for (const k of [live, old, used]) {
      expect(text).not.toContain(k.key);
      expect(text).not.toContain(hashEnrollmentKey(server.context.enrollmentKeyPepper, k.key));
    }
    for (const k of all.body.data) expect(k).not.toHaveProperty('key');

    const expired = await call('GET', `/enrollment-keys?orgId=${ids.a2}&expired=true`, tok.system);
    expect(expired.body.data.map((k: { id: string }) => k.id)).toEqual([old.id]);
    const fresh = await call('GET', `/enrollment-keys?orgId=${ids.a2}&expired=false&limit=100`, tok.system);
    const freshIds = fresh.body.data.map((k: { id: string }) => k.id);
    expect(freshIds).toEqual(expect.arrayContaining([live.id, used.id]));
    expect(freshIds).not.toContain(old.id);
    expectError(
      await call('GET', '/enrollment-keys?expired=yes', tok.system),
      400,
      'expired: expired must be true or false',
      'VALIDATION_ERROR',
    );
  });

  it('scopes lists to the caller and paginates newest first', async () => {
    const a1 = await createKey({ orgId: ids.a1, name: 'scope-a1' });
    const a2 = await createKey({ orgId: ids.a2, name: 'scope-a2' });
    const b1 = await createKey({ orgId: ids.b1, name: 'scope-b1' });
    const listed = async (token: string) =>
      ((await call('GET', '/enrollment-keys?limit=100', token)).body.data as Array<{ id: string }>)
        .map((k) => k.id)
        .filter((id) => [a1.id, a2.id, b1.id].includes(id))
        .sort();
    expect(await listed(tok.system)).toEqual([a1.id, a2.id, b1.id].sort());
    expect(await listed(tok.partnerAll)).toEqual([a1.id, a2.id].sort());
    expect(await listed(tok.partnerSelected)).toEqual([a1.id]);
    expect(await listed(tok.partnerNone)).toEqual([]);
    expect(await listed(tok.orgAdmin)).toEqual([a1.id]);
    expect(await listed(tok.orgAdminB)).toEqual([b1.id]);
    expectError(
      await call('GET', `/enrollment-keys?orgId=${ids.b1}`, tok.partnerAll),
      404,
      'Organization not found',
    );
    expectError(
      await call('GET', `/enrollment-keys?orgId=${ids.a2}`, tok.orgAdmin),
      403,
      'Access to this organization denied',
    );

    for (let i = 0; i < 3; i++) await createKey({ name: `page-${i}` }, tok.orgAdminB);
    const page1 = await call('GET', '/enrollment-keys?limit=2&page=1', tok.orgAdminB);
    expect(page1.body.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(page1.body.pagination.total).toBeGreaterThanOrEqual(4);
    expect(page1.body.data.map((k: { name: string }) => k.name)).toEqual(['page-2', 'page-1']);
  });

  it('GET /:id returns metadata; other tenants and unknown ids get 404', async () => {
    const k = await createKey({ orgId: ids.a1, name: 'lookup', siteId: ids.siteA1 });
    const res = await call('GET', `/enrollment-keys/${k.id}`, tok.orgAdmin);
    expect(res.status).toBe(200);
    const { key: _key, ...metadata } = k;
    expect(res.body).toEqual(metadata);
    for (const token of [tok.orgAdminB, tok.partnerNone]) {
      expectError(await call('GET', `/enrollment-keys/${k.id}`, token), 404, 'Enrollment key not found');
    }
    expectError(
      await call('GET', '/enrollment-keys/00000000-0000-4000-8000-0000000000bb', tok.system),
      404,
      'Enrollment key not found',
    );
  });
});

describe('rotate and delete', () => {
  it('rotate replaces the key, resets usage, and keeps maxUsage and expiresAt unless sent', async () => {
    const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
    const k = await createKey({ orgId: ids.a1, name: 'rotor', maxUsage: 3, expiresAt, siteId: ids.siteA1 });
    expect(redeem(k.key).ok).toBe(true);
    expect(redeem(k.key).ok).toBe(true);

    const res = await call('POST', `/enrollment-keys/${k.id}/rotate`, tok.orgAdmin, {});
    expect(res.status).toBe(200);
    expect(res.body.key).toMatch(/^[0-9a-f]{64}$/);
    expect(res.body.key).not.toBe(k.key);
    expect(res.body).toMatchObject({
      id: k.id,
      orgId: ids.a1,
      siteId: ids.siteA1,
      name: 'rotor',
      usageCount: 0,
      maxUsage: 3,
      expiresAt,
      createdAt: k.createdAt,
      exhausted: false,
    });
    expect(redeem(k.key)).toEqual({ ok: false, reason: 'enrollment_key_not_found' });
    expect(redeem(res.body.key)).toEqual({ ok: true, key: { id: k.id, orgId: ids.a1, siteId: ids.siteA1 } });

    // Without a body at all, too.
    const bare = await server.api.request('POST', `/enrollment-keys/${k.id}/rotate`, { token: tok.system });
    expect(bare.status).toBe(200);
    expect(bare.body).toMatchObject({ usageCount: 0, maxUsage: 3, expiresAt });
  });

  it('rotate sets maxUsage (null = unlimited) and a new expiry; an exhausted or expired key comes back', async () => {
    const k = await createKey({ orgId: ids.a1, name: 'revive', maxUsage: 1 });
    expect(redeem(k.key).ok).toBe(true);
    expect(redeem(k.key)).toEqual({ ok: false, reason: 'enrollment_key_exhausted' });
    server.context.db
      .prepare('UPDATE enrollment_keys SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), k.id);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const res = await call('POST', `/enrollment-keys/${k.id}/rotate`, tok.system, {
      maxUsage: null,
      expiresAt,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      maxUsage: null,
      expiresAt,
      usageCount: 0,
      expired: false,
      exhausted: false,
    });
    expect(row(k.id)).toMatchObject({ max_usage: null, usage_count: 0, expires_at: expiresAt });
    for (let i = 0; i < 5; i++) expect(redeem(res.body.key).ok).toBe(true);
    const limited = await call('POST', `/enrollment-keys/${k.id}/rotate`, tok.system, { maxUsage: 2 });
    expect(limited.body).toMatchObject({ maxUsage: 2, expiresAt, usageCount: 0 });
  });

  it('rotate validates its body and refuses other tenants', async () => {
    const k = await createKey({ orgId: ids.a1, name: 'strict' });
    expectError(
      await call('POST', `/enrollment-keys/${k.id}/rotate`, tok.system, { maxUsage: 0 }),
      400,
      'maxUsage: maxUsage must be an integer between 1 and 100000',
      'VALIDATION_ERROR',
    );
    expectError(
      await call('POST', `/enrollment-keys/${k.id}/rotate`, tok.system, {
        expiresAt: '2000-01-01T00:00:00Z',
      }),
      400,
      'expiresAt: expiresAt must be in the future',
      'VALIDATION_ERROR',
    );
    const hash = row(k.id)!.key_hash;
    for (const token of [tok.orgAdminB, tok.partnerNone]) {
      expectError(
        await call('POST', `/enrollment-keys/${k.id}/rotate`, token, {}),
        404,
        'Enrollment key not found',
      );
    }
    expectError(
      await call('POST', `/enrollment-keys/${k.id}/rotate`, tok.noMfa, {}),
      403,
      'Multi-factor authentication required for this action',
      'MFA_REQUIRED',
    );
    expect(row(k.id)!.key_hash).toBe(hash);
  });

  it('DELETE removes the record for good; other tenants get 404', async () => {
    const k = await createKey({ orgId: ids.a1, name: 'gone' });
    for (const token of [tok.orgAdminB, tok.partnerNone]) {
      expectError(await call('DELETE', `/enrollment-keys/${k.id}`, token), 404, 'Enrollment key not found');
    }
    expectError(
      await call('DELETE', `/enrollment-keys/${k.id}`, tok.noMfa),
      403,
      'Multi-factor authentication required for this action',
      'MFA_REQUIRED',
    );
    expect(row(k.id)).toBeDefined();
    const res = await call('DELETE', `/enrollment-keys/${k.id}`, tok.partnerSelected);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true });
    expect(row(k.id)).toBeUndefined();
    expectError(await call('GET', `/enrollment-keys/${k.id}`, tok.system), 404, 'Enrollment key not found');
    expectError(
      await call('DELETE', `/enrollment-keys/${k.id}`, tok.system),
      404,
      'Enrollment key not found',
    );
    expect(redeem(k.key)).toEqual({ ok: false, reason: 'enrollment_key_not_found' });
  });

  it('records enrollment_key.create, rotate and delete with organization, actor, IP and user agent', async () => {
    const k = await createKey({ orgId: ids.a2, name: 'audited' }, tok.partnerAll);
    const rotated = await call('POST', `/enrollment-keys/${k.id}/rotate`, tok.partnerAll, { maxUsage: 5 });
    await call('DELETE', `/enrollment-keys/${k.id}`, tok.partnerAll);
    await auditSettled(server);
    const entries = server.context.db
      .prepare('SELECT * FROM audit_logs WHERE resource_id = ? ORDER BY seq')
      .all(k.id) as Array<Record<string, unknown>>;
    expect(entries.map((e) => e.action)).toEqual([
      'enrollment_key.create',
      'enrollment_key.rotate',
      'enrollment_key.delete',
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({
        org_id: ids.a2,
        actor_type: 'user',
        actor_email: 'all@p1.test',
        resource_type: 'enrollment_key',
        resource_name: 'audited',
        ip_address: '127.0.0.1',
      });
      expect(e.user_agent).toEqual(expect.any(String));
      for (const secret of [k.key, rotated.body.key as string]) {
        expect(e.details).not.toContain(secret);
        expect(e.details).not.toContain(hashEnrollmentKey(server.context.enrollmentKeyPepper, secret));
      }
    }
    expect(JSON.parse(entries[1]!.details as string)).toMatchObject({
      changedFields: ['maxUsage'],
      maxUsage: 5,
    });
  });
});

describe('redeemEnrollmentKey', () => {
  it('counts one use per successful enrollment and stops at maxUsage', async () => {
    const k = await createKey({ orgId: ids.b1, name: 'three', maxUsage: 3 });
    const results = Array.from({ length: 6 }, () => redeem(k.key));
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.slice(3)).toEqual(Array(3).fill({ ok: false, reason: 'enrollment_key_exhausted' }));
    expect(row(k.id)!.usage_count).toBe(3);
  });

  it('cannot be pushed past maxUsage by enrollments racing on separate connections', async () => {
    const k = await createKey({ orgId: ids.b1, name: 'race', maxUsage: 5 });
    const other = openDatabase(server.config.databaseFile);
    try {
      const contexts = [
        server.context,
        { db: other, enrollmentKeyPepper: server.context.enrollmentKeyPepper },
      ];
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          Promise.resolve().then(() => redeemEnrollmentKey(contexts[i % 2]!, k.key)),
        ),
      );
      expect(outcomes.filter((r) => r.ok)).toHaveLength(5);
      expect(row(k.id)!.usage_count).toBe(5);
    } finally {
      other.close();
    }
  });

  it('tells not found, expired and exhausted apart, and never counts a refused attempt', async () => {
    expect(redeem('0'.repeat(64))).toEqual({ ok: false, reason: 'enrollment_key_not_found' });
    expect(redeem('')).toEqual({ ok: false, reason: 'enrollment_key_not_found' });
    const k = await createKey({ orgId: ids.b1, name: 'expiring', maxUsage: 10 });
    server.context.db
      .prepare('UPDATE enrollment_keys SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1).toISOString(), k.id);
    expect(redeem(k.key)).toEqual({ ok: false, reason: 'enrollment_key_expired' });
    expect(row(k.id)!.usage_count).toBe(0);
    // Expiry wins over exhaustion when both hold.
    server.context.db.prepare('UPDATE enrollment_keys SET usage_count = 10 WHERE id = ?').run(k.id);
    expect(redeem(k.key)).toEqual({ ok: false, reason: 'enrollment_key_expired' });
    // Validity is judged at the given moment.
    const later = await createKey({ orgId: ids.b1, name: 'clock', maxUsage: 10 });
    const expiry = Date.parse(later.expiresAt as string);
    expect(redeemEnrollmentKey(server.context, later.key, expiry - 1).ok).toBe(true);
    expect(redeemEnrollmentKey(server.context, later.key, expiry)).toEqual({
      ok: false,
      reason: 'enrollment_key_expired',
    });
  });

  it('is rolled back with the transaction it runs in', async () => {
    const k = await createKey({ orgId: ids.b1, name: 'tx', maxUsage: 1 });
    expect(() =>
      server.context.db.transaction(() => {
        expect(redeem(k.key).ok).toBe(true);
        throw new Error('device cap reached');
      })(),
    ).toThrow('device cap reached');
    expect(row(k.id)!.usage_count).toBe(0);
    expect(redeem(k.key).ok).toBe(true);
  });

  it('refuses the keys of a deleted organization', async () => {
    const p = insertPartner(server, { name: 'Closing MSP' });
    const org = insertOrg(server, p.partnerId, 'Closing Org');
    const k = await createKey({ orgId: org, name: 'orphan', maxUsage: 5 });
    server.context.db
      .prepare('UPDATE organizations SET deleted_at = ? WHERE id = ?')
      .run(new Date().toISOString(), org);
    expect(redeem(k.key)).toEqual({ ok: false, reason: 'enrollment_key_not_found' });
    expect(row(k.id)!.usage_count).toBe(0);
  });
});

describe('enrollment key pepper', () => {
  const PEPPER_A = 'pepper-a-0123456789abcdef';
  const PEPPER_B = 'pepper-b-0123456789abcdef';
  let servers: TestServer[] = [];
  afterEach(async () => {
    for (const s of servers) await s.close().catch(() => undefined);
    servers = [];
  });

  it('uses ENROLLMENT_KEY_PEPPER; after the pepper changes, existing keys fail; the old pepper revives them', async () => {
    const first = await startServer({ env: { ENROLLMENT_KEY_PEPPER: PEPPER_A } });
    servers.push(first);
    expect(first.context.enrollmentKeyPepper).toBe(PEPPER_A);
    const p = insertPartner(first);
    const org = insertOrg(first, p.partnerId);
    const token = await mfaToken(first);
    const created = await first.api.request('POST', '/enrollment-keys', {
      token,
      body: { orgId: org, name: 'peppered', maxUsage: 10 },
    });
    expect(created.status).toBe(201);
    const key = created.body.key as string;
    const stored = first.context.db.prepare('SELECT key_hash FROM enrollment_keys').get() as {
      key_hash: string;
    };
    expect(stored.key_hash).toBe(hashEnrollmentKey(PEPPER_A, key));
    expect(redeemEnrollmentKey(first.context, key).ok).toBe(true);
    await first.close();

    const second = await startServer({ dataDir: first.dataDir, env: { ENROLLMENT_KEY_PEPPER: PEPPER_B } });
    servers.push(second);
    expect(redeemEnrollmentKey(second.context, key)).toEqual({
      ok: false,
      reason: 'enrollment_key_not_found',
    });
    await second.close();

    const third = await startServer({ dataDir: first.dataDir, env: { ENROLLMENT_KEY_PEPPER: PEPPER_A } });
    servers.push(third);
    expect(redeemEnrollmentKey(third.context, key)).toEqual({
      ok: true,
      key: { id: created.body.id, orgId: org, siteId: null },
    });
    const usage = third.context.db.prepare('SELECT usage_count FROM enrollment_keys').get() as {
      usage_count: number;
    };
    expect(usage.usage_count).toBe(2);
    await third.dispose();
  });
});
