import { afterAll, describe, expect, it } from 'vitest';
import { redeemEnrollmentKey } from '../../server/modules/enrollment-keys/service';
import { auditSettled, startServer, type TestServer } from '../support/server';
import { mfaToken } from '../support/seed';

// Demo data (SEED_DEMO / `serve --demo`): a real tenant tree that technicians can sign in to, created once, and a
// fleet enrollment key reissued on every start.

describe('demo seed', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    // dispose() is idempotent: it closes the server (once) and removes its data directory.
    for (const s of servers) await s.dispose();
  });

  it('creates a tenant technicians can use, and reissues only the fleet key on the next start', async () => {
    const first = await startServer({ env: { SEED_DEMO: 'true' } });
    servers.push(first);
    const demo = first.demo!;
    expect(demo.created).toBe(true);
    expect(demo.password).toMatch(/^Demo-/);
    expect(demo.enrollmentKey.key).toMatch(/^[0-9a-f]{64}$/);

    // The partner administrator signs in and sees the four organizations of the demo partner.
    const login = await first.api.login('riley.chen@northwind.demo', demo.password!);
    expect(login.status).toBe(200);
    const orgs = await first.api.get('/orgs/', login.body.accessToken);
    expect((orgs.body.data as Array<{ name: string }>).map((o) => o.name)).toEqual([
      'Contoso Dental',
      'Fabrikam Legal',
      'Northwind Internal',
      'Tailspin Logistics',
    ]);
    // The helpdesk technician is limited to the organizations selected for them.
    const jordan = await first.api.login('jordan.lee@northwind.demo', demo.password!);
    const jordanOrgs = await first.api.get('/orgs/', jordan.body.accessToken);
    expect(jordanOrgs.body.data).toHaveLength(2);
    const dataDir = first.dataDir;
    await first.close();

    const second = await startServer({ dataDir, env: { SEED_DEMO: 'true' } });
    servers.push(second);
    const again = second.demo!;
    expect(again.created).toBe(false);
    expect(again.password).toBeNull();
    expect(again.partnerId).toBe(demo.partnerId);
    expect(again.enrollmentKey.key).not.toBe(demo.enrollmentKey.key);
    // The old fleet key is gone; the new one admits agents into Contoso Dental.
    expect(redeemEnrollmentKey(second.context, demo.enrollmentKey.key)).toEqual({
      ok: false,
      reason: 'enrollment_key_not_found',
    });
    const redeemed = redeemEnrollmentKey(second.context, again.enrollmentKey.key);
    expect(redeemed).toMatchObject({ ok: true, key: { orgId: again.enrollmentKey.orgId } });
    const partners = second.context.db
      .prepare("SELECT COUNT(*) AS n FROM partners WHERE slug = 'northwind-demo'")
      .get();
    expect(partners).toEqual({ n: 1 });
  });

  it('leaves a usable platform administrator instead of a dead setup link, and names each account with its role', async () => {
    const first = await startServer({ bootstrap: false, env: { SEED_DEMO: 'true' } });
    servers.push(first);
    const demo = first.demo!;
    // The demo's people close first run, so no setup link is handed out...
    expect(first.setupToken).toBeNull();
    expect((await first.api.get('/setup/status')).body).toEqual({ setupRequired: false });
    // ...and the platform administrator it created signs in, once, with the password shown now.
    const admin = demo.platformAdmin!;
    expect(admin.email).toBe('platform.admin@gatehouse.demo');
    expect(admin.password.length).toBeGreaterThanOrEqual(12);
    const signedIn = await first.api.login(admin.email, admin.password);
    expect(signedIn.status).toBe(200);
    const me = await first.api.get('/auth/me', signedIn.body.accessToken);
    expect(me.body.user).toMatchObject({ email: admin.email, scope: 'system' });
    expect(demo.technicians.map((t) => [t.email, t.role])).toEqual([
      ['riley.chen@northwind.demo', 'Partner administrator, all organizations'],
      ['sam.ortiz@northwind.demo', 'Partner technician, all organizations'],
      ['jordan.lee@northwind.demo', 'Helpdesk Tier 1, Contoso Dental and Fabrikam Legal'],
      ['priya.natarajan@contoso.demo', 'Organization administrator, Contoso Dental'],
      ['morgan.blake@fabrikam.demo', 'Read-only organization user, Fabrikam Legal'],
    ]);
    await auditSettled(first);
    const created = first.context.db
      .prepare("SELECT resource_name FROM audit_logs WHERE action = 'demo.platform_admin.create'")
      .all();
    expect(created).toEqual([{ resource_name: admin.email }]);
    const dataDir = first.dataDir;
    await first.close();

    // The next start neither prints the credentials again nor adds a second administrator nor a setup link.
    const second = await startServer({ dataDir, bootstrap: false, env: { SEED_DEMO: 'true' } });
    servers.push(second);
    expect(second.demo!.platformAdmin).toBeNull();
    expect(second.setupToken).toBeNull();
    expect(second.context.db.prepare('SELECT COUNT(*) AS n FROM platform_admins').get()).toEqual({ n: 1 });
    expect((await second.api.login(admin.email, admin.password)).status).toBe(200);
  });

  it('POST /demo/seed is for platform administrators with an MFA session', async () => {
    const server = await startServer();
    servers.push(server);
    const plain = await server.api.login();
    expect((await server.api.post('/demo/seed', {}, plain.body.accessToken)).status).toBe(403);
    const token = await mfaToken(server);
    const seeded = await server.api.post('/demo/seed', {}, token);
    expect(seeded.status).toBe(201);
    expect(seeded.body.created).toBe(true);
    // The caller is the install's administrator: the demo adds none.
    expect(seeded.body.platformAdmin).toBeNull();
    const riley = await server.api.login('riley.chen@northwind.demo', seeded.body.password);
    expect(riley.status).toBe(200);
    // A partner user may not seed platform-wide demo data, even with full rights in their own partner.
    const denied = await server.api.post('/demo/seed', {}, riley.body.accessToken);
    expect(denied.status).toBe(403);
  });
});
