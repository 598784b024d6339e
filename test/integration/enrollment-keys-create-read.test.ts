import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import {
  server,
  ids,
  tok,
  type Body,
  call,
  createKey,
  row,
  expectError,
  redeem,
  useEnrollmentKeysWorld,
} from '../support/enrollment-keys-world';

// Creating enrollment keys (POST /enrollment-keys) and reading them back.

useEnrollmentKeysWorld();

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
      'MFA required',
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
