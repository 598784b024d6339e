import { beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  ids,
  tok,
  siteA1b,
  restricted,
  keyManage,
  keyRead,
  call,
  create,
  createOk,
  expectError,
  storedRule,
  auditEntries,
  usePamRulesWorld,
} from '../support/pam-rules-world';

// /pam/rules: who may see and change which rules (organization, partner, system, API keys), permissions and
// MFA, and a policy manager restricted to one site.

usePamRulesWorld();

describe('scope', () => {
  it('partner and system callers name the organization', async () => {
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A' }, tok.system),
      400,
      'orgId is required for system scope',
    );
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A' }, tok.partnerAll),
      400,
      'orgId is required for partner scope',
    );
    const rule = await createOk({ orgId: ids.a2, matchSigner: 'Partner' }, tok.partnerAll);
    expect(rule.orgId).toBe(ids.a2);
    expectError(
      await create(
        { name: 'x', verdict: 'auto_approve', matchSigner: 'A', orgId: ids.a2 },
        tok.partnerSelected,
      ),
      404,
      'Organization not found',
    );
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A', orgId: ids.b1 }, tok.partnerAll),
      404,
      'Organization not found',
    );
    expectError(await call('GET', '/pam/rules', tok.partnerAll), 400, 'orgId is required for partner scope');
    const listed = await call('GET', `/pam/rules?orgId=${ids.a2}`, tok.partnerAll);
    expect(listed.body.rules.map((r: { id: string }) => r.id)).toEqual([rule.id]);
  });

  it('an organization caller naming another organization is refused', async () => {
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A', orgId: ids.b1 }),
      403,
      'Access to this organization denied',
    );
    expectError(
      await call('GET', `/pam/rules?orgId=${ids.b1}`, tok.orgAdmin),
      403,
      'Access to this organization denied',
    );
    expect((await call('GET', `/pam/rules?orgId=${ids.a1}`, tok.orgAdmin)).status).toBe(200);
  });

  it('another organization never sees, reads, changes or deletes a rule (404)', async () => {
    const rule = await createOk({ name: 'private', matchSigner: 'Secret' });
    const listB = await call('GET', '/pam/rules', tok.orgAdminB);
    expect(listB.status).toBe(200);
    expect(listB.body.rules.some((r: { orgId: string }) => r.orgId !== ids.b1)).toBe(false);
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      expectError(
        await call(method, `/pam/rules/${rule.id}`, tok.orgAdminB, body),
        404,
        'PAM rule not found',
      );
      expectError(
        await call(method, `/pam/rules/${rule.id}`, tok.partnerNone, body),
        404,
        'PAM rule not found',
      );
    }
    expect(storedRule(rule.id)).toMatchObject({ name: 'private' });
  });

  it('Invalid PAM id', async () => {
    expectError(await call('GET', '/pam/rules/not-a-uuid', tok.orgAdmin), 400, 'id: Invalid PAM id');
  });
});

describe('permissions and MFA', () => {
  it('writes need pam:manage_policy', async () => {
    const rule = await createOk({ matchSigner: 'Acme' });
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A' }, tok.orgTech),
      403,
      'Insufficient permissions',
      'PERMISSION_DENIED',
    );
    expectError(
      await call('PATCH', `/pam/rules/${rule.id}`, tok.orgTech, { name: 'x' }),
      403,
      'Insufficient permissions',
    );
    expectError(await call('DELETE', `/pam/rules/${rule.id}`, tok.orgTech), 403, 'Insufficient permissions');
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A' }, { key: keyRead }),
      403,
      'API key does not have required permissions',
    );
  });

  it('console users need an MFA session for writes, not for reads; API keys pass on their scopes', async () => {
    const noMfa = tok.noMfa;
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchSigner: 'A' }, noMfa),
      403,
      /MFA required/,
      'MFA_REQUIRED',
    );
    expect((await call('GET', '/pam/rules', noMfa)).status).toBe(200);
    const byKey = await createOk({ name: 'by key', matchSigner: 'K' }, { key: keyManage });
    expect(storedRule(byKey.id)).toMatchObject({ org_id: ids.a1 });
    const [entry] = await auditEntries('pam.rule.create', byKey.id);
    expect(entry).toMatchObject({ actor_type: 'api_key' });
    expect((await call('DELETE', `/pam/rules/${byKey.id}`, { key: keyManage })).status).toBe(200);
  });

  it('no credential: 401', async () => {
    expect((await api.get('/pam/rules')).status).toBe(401);
  });
});

describe('site-restricted policy manager', () => {
  let orgWide: string;
  let ownSite: string;
  let otherSite: string;

  beforeAll(async () => {
    orgWide = (await createOk({ name: 'org-wide', matchUser: 'x' })).id;
    ownSite = (await createOk({ name: 'own site', matchUser: 'y', siteId: ids.siteA1 })).id;
    otherSite = (await createOk({ name: 'other site', matchUser: 'z', siteId: siteA1b })).id;
  });

  it('sees organization-wide rules and the rules of their sites only', async () => {
    const res = await call('GET', '/pam/rules', restricted);
    const seen = res.body.rules.map((r: { id: string }) => r.id);
    expect(seen).toContain(orgWide);
    expect(seen).toContain(ownSite);
    expect(seen).not.toContain(otherSite);
    expect(
      res.body.rules.every((r: { siteId: string | null }) => r.siteId === null || r.siteId === ids.siteA1),
    ).toBe(true);
    expect((await call('GET', `/pam/rules/${orgWide}`, restricted)).status).toBe(200);
    expectError(await call('GET', `/pam/rules/${otherSite}`, restricted), 404, 'PAM rule not found');
  });

  it('writes rules of their sites; anything reaching other sites is 403', async () => {
    const mine = await createOk({ name: 'mine', matchUser: 'm', siteId: ids.siteA1 }, restricted);
    expect(mine.siteId).toBe(ids.siteA1);
    expect(
      (await call('PATCH', `/pam/rules/${ownSite}`, restricted, { name: 'own site renamed' })).status,
    ).toBe(200);
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchUser: 'm' }, restricted),
      403,
      'Access to this site denied',
    );
    expectError(
      await create({ name: 'x', verdict: 'auto_approve', matchUser: 'm', siteId: siteA1b }, restricted),
      403,
      'Access to this site denied',
    );
    expectError(
      await call('PATCH', `/pam/rules/${orgWide}`, restricted, { name: 'x' }),
      403,
      'Access to this site denied',
    );
    expectError(
      await call('PATCH', `/pam/rules/${otherSite}`, restricted, { name: 'x' }),
      403,
      'Access to this site denied',
    );
    expectError(
      await call('PATCH', `/pam/rules/${mine.id}`, restricted, { siteId: null }),
      403,
      'Access to this site denied',
    );
    expectError(await call('DELETE', `/pam/rules/${orgWide}`, restricted), 403, 'Access to this site denied');
    expect(storedRule(orgWide)).toMatchObject({ name: 'org-wide' });
    expect((await call('DELETE', `/pam/rules/${mine.id}`, restricted)).status).toBe(200);
  });
});
