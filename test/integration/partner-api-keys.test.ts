import { describe, expect, it } from 'vitest';
import { auditOf, del } from '../support/tenancy';
import { alpha, server, tokens, useImportWorld } from '../support/import-world';

// /partner-keys over real HTTP: a partner administrator with an MFA session creates a psk_ key shown once and
// stored as a hash, lists keys without secrets, rotates and revokes them; every write is audited.

useImportWorld();

const create = (body: object, token = tokens.admin) => server.api.post('/partner-keys', body, token);
const callWith = (key: string) =>
  server.api.request('GET', '/partner-api/organizations', { headers: { 'x-api-key': key } });

describe('partner keys', () => {
  it('creates a key once, stores only its hash, lists it without the secret, and audits', async () => {
    const res = await create({
      name: 'RMM sync',
      scopes: ['organizations:read', 'sites:read', 'sites:read'],
      rateLimit: 50,
    });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^psk_[A-Za-z0-9_-]{32}$/);
    expect(res.body).toMatchObject({
      partnerId: alpha,
      name: 'RMM sync',
      scopes: ['organizations:read', 'sites:read'],
      rateLimit: 50,
      status: 'active',
      keyPrefix: (res.body.key as string).slice(0, 12),
    });
    const stored = server.context.db
      .prepare('SELECT * FROM partner_keys WHERE id = ?')
      .get(res.body.id) as Record<string, string>;
    expect(JSON.stringify(stored)).not.toContain(res.body.key);
    const list = await server.api.get('/partner-keys', tokens.admin);
    expect(list.body.data.map((k: { id: string }) => k.id)).toContain(res.body.id);
    expect(JSON.stringify(list.body)).not.toContain(res.body.key);
    expect((await auditOf(server, 'partner_key.create', res.body.id))[0]).toMatchObject({ org_id: null });
  });

  it('rotates (the old key stops at once) and revokes', async () => {
    const first = (await create({ name: 'Rotating', scopes: ['organizations:read'] })).body;
    expect((await callWith(first.key)).status).toBe(200);
    const rotated = await server.api.post(`/partner-keys/${first.id}/rotate`, {}, tokens.admin);
    expect(rotated.status).toBe(200);
    expect(rotated.body.key).not.toBe(first.key);
    expect((await callWith(first.key)).status).toBe(401);
    expect((await callWith(rotated.body.key)).status).toBe(200);
    const revoked = await del(server, `/partner-keys/${first.id}`, tokens.admin);
    expect(revoked.body.status).toBe('revoked');
    const refused = await callWith(rotated.body.key);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('API key is revoked');
    expect((await server.api.post(`/partner-keys/${first.id}/rotate`, {}, tokens.admin)).status).toBe(400);
    expect(await auditOf(server, 'partner_key.rotate', first.id)).toHaveLength(1);
    expect(await auditOf(server, 'partner_key.revoke', first.id)).toHaveLength(1);
  });

  it('refuses unknown scopes, expired keys, callers without MFA or partner administration, and other partners', async () => {
    expect((await create({ name: 'x', scopes: ['devices:read'] })).status).toBe(400);
    expect((await create({ name: 'x', scopes: [] })).status).toBe(400);
    expect((await create({ name: 'x', scopes: ['sites:read'], rateLimit: 0 })).status).toBe(400);
    expect((await create({ name: 'x', scopes: ['sites:read'] }, tokens.noMfa)).status).toBe(403);
    expect((await create({ name: 'x', scopes: ['sites:read'] }, tokens.selected)).status).toBe(403);
    expect((await create({ name: 'x', scopes: ['sites:read'] }, tokens.platform)).status).toBe(403);
    const own = (await create({ name: 'Mine', scopes: ['organizations:read'] })).body;
    expect((await server.api.post(`/partner-keys/${own.id}/rotate`, {}, tokens.betaAdmin)).status).toBe(404);
    expect((await del(server, `/partner-keys/${own.id}`, tokens.betaAdmin)).status).toBe(404);
    expect((await server.api.get('/partner-keys', tokens.betaAdmin)).body.data).toEqual([]);
    server.context.db
      .prepare('UPDATE partner_keys SET expires_at = ? WHERE id = ?')
      .run(new Date(Date.now() - 1000).toISOString(), own.id);
    const expired = await callWith(own.key);
    expect(expired.status).toBe(401);
    expect(expired.body.error).toBe('API key is expired');
    expect(
      (await server.api.get('/partner-keys', tokens.admin)).body.data.find(
        (k: { id: string }) => k.id === own.id,
      ).status,
    ).toBe('expired');
  });
});
