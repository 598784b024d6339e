import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server';
import { insertOrg, insertOrgUser, insertPartner, ROLES, startSession } from '../support/seed';
import { userById } from '../../server/modules/users';

// Spec 1 errors that need an unusual state to appear: a token whose organization context is missing, and a rate
// limiter whose backing store is gone (registration and verification must refuse rather than run unlimited).

describe('error edges', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  it('answers 403 "Organization context required" to an organization-scoped token without an organization', async () => {
    const { partnerId } = insertPartner(server);
    const orgId = insertOrg(server, partnerId);
    const userId = await insertOrgUser(server, orgId, ROLES.orgTechnician, 'tech@edge.test');
    // A validly signed token whose claims lost the organization: the server must not fall back to "no filter".
    const token = await server.context.tokens.signAccess(
      userId,
      { scope: 'organization', partnerId, orgId: null, roleId: ROLES.orgTechnician, roleName: null },
      false,
      userById(server.context.db, userId)!.token_version,
      startSession(server, userId),
    );
    const res = await server.api.get('/orgs/', token);
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Organization context required' });
  });

  it('answers one identical 400 to every failed email verification, malformed bodies included', async () => {
    const bodies = [{}, { token: 42 }, { token: null }, { token: 'not-a-token' }];
    for (const body of bodies) {
      const res = await server.api.post('/auth/verify-email', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'invalid or expired token' });
    }
  });

  it('reads the audit log only with audit:read', async () => {
    const { partnerId } = insertPartner(server);
    const orgId = insertOrg(server, partnerId, 'Fabrikam');
    await insertOrgUser(server, orgId, ROLES.orgTechnician, 'no-audit@edge.test');
    await insertOrgUser(server, orgId, ROLES.orgReadOnly, 'auditor@edge.test');
    const { plainToken } = await import('../support/seed');
    const denied = await server.api.get('/audit-logs/logs', await plainToken(server, 'no-audit@edge.test'));
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ code: 'PERMISSION_DENIED', required: 'audit:read' });
    const allowed = await server.api.get('/audit-logs/logs', await plainToken(server, 'auditor@edge.test'));
    expect(allowed.status).toBe(200);
  });

  it('answers 503 "Service temporarily unavailable" when the rate limiter cannot count', async () => {
    server.context.db.exec('DROP TABLE rate_limits');
    const register = await server.api.post('/auth/register-partner', {
      companyName: 'Edge Case Ltd',
      name: 'Edge',
      email: 'edge@edge.test',
      password: 'Sturdy-Lantern-2026!',
      acceptTerms: true,
    });
    expect(register.status).toBe(503);
    expect(register.body).toEqual({ error: 'Service temporarily unavailable' });
    const verify = await server.api.post('/auth/verify-email', { token: 'a'.repeat(43) });
    expect(verify.status).toBe(503);
    expect(verify.body).toEqual({ error: 'Service temporarily unavailable' });
    // Nothing was queued while the limiter was down.
    const tokens = server.context.db.prepare('SELECT COUNT(*) AS n FROM email_tokens').get();
    expect(tokens).toEqual({ n: 0 });
  });
});
