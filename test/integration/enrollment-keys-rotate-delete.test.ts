import { describe, expect, it } from 'vitest';
import { hashEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import { auditSettled } from '../support/server';
import {
  server,
  ids,
  tok,
  call,
  createKey,
  row,
  expectError,
  redeem,
  useEnrollmentKeysWorld,
} from '../support/enrollment-keys-world';

// Rotating and deleting enrollment keys.

useEnrollmentKeysWorld();

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
      'MFA required',
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
      'MFA required',
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
