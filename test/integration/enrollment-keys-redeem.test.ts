import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../server/db/connection';
import { hashEnrollmentKey, redeemEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import { startServer, type TestServer } from '../support/server';
import { insertOrg, insertPartner, mfaToken } from '../support/seed';
import {
  server,
  ids,
  createKey,
  row,
  redeem,
  useEnrollmentKeysWorld,
} from '../support/enrollment-keys-world';

// Redeeming an enrollment key (what agent enrollment uses) and the pepper its hash is keyed with.

useEnrollmentKeysWorld();

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
