import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPartner, insertPartnerUser, mfaToken, PASSWORD } from '../support/seed';
import { startServer, type TestServer } from '../support/server';
import { patch } from '../support/tenancy';

// The IP allowlist when proxy headers are not trusted: the socket address decides, forwarded headers do not.

describe('IP allowlist without trusted proxy parsing', () => {
  let server: TestServer;
  let partnerId: string;
  let token: string;

  beforeAll(async () => {
    server = await startServer();
    const p = insertPartner(server, { name: 'Untrusted' });
    partnerId = p.partnerId;
    await insertPartnerUser(server, partnerId, p.adminRoleId, 'admin@untrusted.test', { orgAccess: 'all' });
    token = await mfaToken(server, 'admin@untrusted.test', PASSWORD);
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('refuses to enable an allowlist (proxy_trust_required) but allows clearing it', async () => {
    const res = await patch(
      server,
      '/orgs/partners/me',
      { settings: { security: { ipAllowlist: ['127.0.0.1'] } } },
      token,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'IP allowlist needs trusted proxy parsing (TRUST_PROXY_HEADERS and TRUSTED_PROXY_CIDRS)',
      code: 'proxy_trust_required',
    });
    const cleared = await patch(
      server,
      '/orgs/partners/me',
      { settings: { security: { ipAllowlist: [] } } },
      token,
    );
    expect(cleared.status).toBe(200);
  });

  it('denies a forwarded request it cannot trust (untrusted_ip) when an allowlist is set', async () => {
    server.context.db
      .prepare('UPDATE partners SET settings = ? WHERE id = ?')
      .run(JSON.stringify({ security: { ipAllowlist: ['127.0.0.1', '203.0.113.0/24'] } }), partnerId);
    const direct = await server.api.get('/orgs/partners/me', token);
    expect(direct.status).toBe(200);
    const forwarded = await server.api.request('GET', '/orgs/partners/me', {
      token,
      headers: { 'x-forwarded-for': '203.0.113.5' },
    });
    expect(forwarded.status).toBe(403);
    expect(forwarded.body).toEqual({ error: 'Client address cannot be trusted', code: 'untrusted_ip' });
    const realIp = await server.api.request('GET', '/orgs/partners/me', {
      token,
      headers: { 'x-real-ip': '203.0.113.5' },
    });
    expect(realIp.body.code).toBe('untrusted_ip');
  });
});
