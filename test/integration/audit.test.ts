import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifyChain } from '../../server/modules/audit/chain';
import {
  ADMIN,
  auditSettled,
  enrollTotp,
  seedOrgUser,
  startServer,
  type TestServer,
} from '../support/server';

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.dispose();
});

const actions = (s: TestServer) =>
  (s.context.db.prepare('SELECT action FROM audit_logs ORDER BY seq').all() as Array<{ action: string }>).map(
    (r) => r.action,
  );

describe('audit writer', () => {
  it('records user.login, user.logout and auth.mfa.* with actor, IP and user agent', async () => {
    await enrollTotp(server);
    const login = await server.api.login(ADMIN.email, 'wrong-password');
    expect(login.status).toBe(401);
    const admin = await server.api.login();
    expect(admin.body.mfaRequired).toBe(true);
    await auditSettled(server);
    expect(actions(server)).toEqual([
      'setup.admin.bootstrap',
      'user.login',
      'auth.mfa.setup',
      'auth.mfa.enable',
      'user.login.failed',
    ]);
    const entry = server.context.db
      .prepare("SELECT * FROM audit_logs WHERE action = 'user.login'")
      .get() as Record<string, unknown>;
    expect(entry).toMatchObject({
      actor_type: 'user',
      actor_email: ADMIN.email,
      ip_address: '127.0.0.1',
      result: 'success',
    });
    expect(entry.user_agent).toEqual(expect.any(String));
  });

  it('writes without blocking the request: entries appear after the response', async () => {
    const login = await server.api.login();
    await server.api.post('/auth/logout', {}, login.body.accessToken);
    await auditSettled(server);
    expect(actions(server)).toContain('user.logout');
  });

  it('lists entries newest first with clamped pagination', async () => {
    for (let i = 0; i < 3; i++) await server.api.login();
    await auditSettled(server);
    const token = (await server.api.login()).body.accessToken;
    await auditSettled(server);
    const page = await server.api.get('/audit-logs/logs?limit=2&page=0', token);
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ page: 1, limit: 2, total: 5 });
    expect(page.body.data).toHaveLength(2);
    expect(page.body.data[0]).toMatchObject({
      action: 'user.login',
      category: 'authentication',
      result: 'success',
      user: { email: ADMIN.email },
    });
    const clamped = await server.api.get('/audit-logs/logs?limit=5000&page=-3', token);
    expect(clamped.body.pagination).toMatchObject({ page: 1, limit: 100 });
    const junk = await server.api.get('/audit-logs/logs?limit=abc&page=xyz', token);
    expect(junk.body.pagination).toMatchObject({ page: 1, limit: 50 });
    const filtered = await server.api.get('/audit-logs/logs?action=BOOTSTRAP', token);
    expect(filtered.body.data.map((e: { action: string }) => e.action)).toEqual(['setup.admin.bootstrap']);
  });

  it('scopes entries to the caller: an organization user sees only their organization', async () => {
    const org = await seedOrgUser(server, 'tech@contoso.test', 'Contoso-Tech-2026');
    const tech = await server.api.login('tech@contoso.test', 'Contoso-Tech-2026');
    expect(tech.body.user).toMatchObject({ scope: 'organization', orgId: org.orgId });
    await server.api.login(); // a platform-level entry the technician must not see
    await auditSettled(server);
    const seen = await server.api.get('/audit-logs/logs', tech.body.accessToken);
    expect(seen.body.data.length).toBeGreaterThan(0);
    expect(seen.body.data.every((e: { orgId: string }) => e.orgId === org.orgId)).toBe(true);
    const verifyOther = await server.api.get(
      '/audit-logs/verify?orgId=00000000-0000-4000-8000-00000000abcd',
      tech.body.accessToken,
    );
    expect(verifyOther.status).toBe(404);
  });
});

describe('hash chain', () => {
  async function withEntries(): Promise<string> {
    const org = await seedOrgUser(server, 'tech@contoso.test', 'Contoso-Tech-2026');
    for (let i = 0; i < 4; i++) await server.api.login('tech@contoso.test', 'Contoso-Tech-2026');
    await auditSettled(server);
    return org.orgId;
  }

  it('verifies an untouched chain, per organization', async () => {
    const orgId = await withEntries();
    const result = verifyChain(server.context.db, { orgId, partnerId: null });
    expect(result).toMatchObject({ chain: orgId, valid: true, checked: 4, problems: [] });
    const token = (await server.api.login()).body.accessToken;
    const all = await server.api.get('/audit-logs/verify', token);
    expect(all.status).toBe(200);
    expect(all.body.valid).toBe(true);
    expect(all.body.chains.map((c: { chain: string }) => c.chain).sort()).toEqual([orgId, 'platform'].sort());
  });

  it('finds a row whose content was changed', async () => {
    const orgId = await withEntries();
    const victim = server.context.db
      .prepare('SELECT id, seq FROM audit_logs WHERE org_id = ? ORDER BY seq LIMIT 1 OFFSET 1')
      .get(orgId) as { id: string; seq: number };
    server.context.db.prepare("UPDATE audit_logs SET ip_address = '203.0.113.9' WHERE id = ?").run(victim.id);
    expect(verifyChain(server.context.db, { orgId, partnerId: null })).toMatchObject({
      valid: false,
      problem: { reason: 'checksum_mismatch', entryId: victim.id },
    });
    const token = (await server.api.login()).body.accessToken;
    const res = await server.api.get(`/audit-logs/verify?orgId=${orgId}`, token);
    expect(res.body).toMatchObject({
      valid: false,
      chains: [{ problem: { reason: 'checksum_mismatch', entryId: victim.id } }],
    });
  });

  it('finds a row removed from the middle and rows removed from the end', async () => {
    const orgId = await withEntries();
    const rows = server.context.db
      .prepare('SELECT id FROM audit_logs WHERE org_id = ? ORDER BY seq')
      .all(orgId) as Array<{ id: string }>;
    server.context.db.prepare('DELETE FROM audit_logs WHERE id = ?').run(rows[3]!.id);
    expect(verifyChain(server.context.db, { orgId, partnerId: null })).toMatchObject({
      valid: false,
      problem: { reason: 'head_mismatch' },
    });
    server.context.db.prepare('DELETE FROM audit_logs WHERE id = ?').run(rows[1]!.id);
    expect(verifyChain(server.context.db, { orgId, partnerId: null })).toMatchObject({
      valid: false,
      problem: { reason: 'chain_broken', entryId: rows[2]!.id },
    });
  });

  it('logs and drops a failed write instead of failing the request', async () => {
    await auditSettled(server);
    server.context.db.exec('DROP TABLE audit_chain_heads');
    const login = await server.api.login();
    expect(login.status).toBe(200);
    await auditSettled(server);
    expect(actions(server)).toEqual(['setup.admin.bootstrap']);
  });
});

describe('partner audit chain', () => {
  it("keeps a partner's own entries in its chain, readable by its full-access administrators only", async () => {
    const { insertOrg, insertPartner, insertPartnerUser, mfaToken, PASSWORD, ROLES } =
      await import('../support/seed');
    const { partnerId, adminRoleId } = insertPartner(server, { name: 'Northwind' });
    const orgA = insertOrg(server, partnerId, 'Alpha');
    insertOrg(server, partnerId, 'Bravo');
    const other = insertPartner(server, { name: 'Fabrikam' });
    await insertPartnerUser(server, partnerId, adminRoleId, 'admin@northwind.test', { orgAccess: 'all' });
    await insertPartnerUser(server, partnerId, adminRoleId, 'limited@northwind.test', {
      orgAccess: 'selected',
      orgIds: [orgA],
    });
    await insertPartnerUser(server, partnerId, ROLES.partnerTechnician, 'tech@northwind.test', {
      orgAccess: 'all',
    });
    await insertPartnerUser(server, other.partnerId, other.adminRoleId, 'admin@fabrikam.test', {
      orgAccess: 'all',
    });
    const admin = await mfaToken(server, 'admin@northwind.test', PASSWORD);
    const settings = await server.api.request('PATCH', '/orgs/partners/me', {
      token: admin,
      body: { settings: { timezone: 'Europe/London' } },
    });
    expect(settings.status).toBe(200);
    await auditSettled(server);

    const row = server.context.db
      .prepare("SELECT org_id, partner_id FROM audit_logs WHERE action = 'partner.settings.update'")
      .get();
    expect(row).toEqual({ org_id: null, partner_id: partnerId });
    const visible = async (token: string) =>
      (
        (await server.api.get('/audit-logs/logs?limit=100', token)).body.data as Array<{ action: string }>
      ).map((e) => e.action);
    expect(await visible(admin)).toEqual(expect.arrayContaining(['partner.settings.update', 'user.login']));
    // A partner technician (audit:read, every organization), a partner user limited to some organizations, and
    // another partner do not read the partner's own chain.
    const tech = await mfaToken(server, 'tech@northwind.test', PASSWORD);
    const techSees = await visible(tech);
    expect(techSees).not.toContain('partner.settings.update');
    expect(
      (await server.api.get('/audit-logs/verify', tech)).body.chains.map((c: { chain: string }) => c.chain),
    ).not.toContain(`partner:${partnerId}`);
    expect(await visible(await mfaToken(server, 'limited@northwind.test', PASSWORD))).not.toContain(
      'partner.settings.update',
    );
    expect(await visible(await mfaToken(server, 'admin@fabrikam.test', PASSWORD))).not.toContain(
      'partner.settings.update',
    );

    // The chain verifies for the partner and for the platform administrator, and detects an edit.
    const verified = await server.api.get('/audit-logs/verify', admin);
    expect(verified.body.valid).toBe(true);
    expect(verified.body.chains.map((c: { chain: string }) => c.chain)).toContain(`partner:${partnerId}`);
    server.context.db
      .prepare("UPDATE audit_logs SET details = '{}' WHERE action = 'partner.settings.update'")
      .run();
    const system = await mfaToken(server);
    const tampered = await server.api.get('/audit-logs/verify', system);
    expect(tampered.body.valid).toBe(false);
    expect(tampered.body.chains).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ chain: `partner:${partnerId}`, valid: false }),
        expect.objectContaining({ chain: 'platform', valid: true }),
      ]),
    );
  });
});
