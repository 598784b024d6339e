import { describe, expect, it } from 'vitest';
import { insertOrgUser, insertSite, mfaToken, PASSWORD, ROLES } from '../support/seed';
import { READS, WRITES } from '../support/isolation-matrix-cells';
import {
  type Caller,
  CALLERS,
  server,
  tokens,
  ids,
  useIsolationMatrixWorld,
} from '../support/isolation-matrix-world';

// Tenant isolation, cell by cell (the world and its cells are in test/support/isolation-matrix-*.ts), then the
// lists each scope sees and a site-restricted organization user.

useIsolationMatrixWorld();

describe('tenant isolation matrix', () => {
  for (const cell of [...READS, ...WRITES]) {
    it(`${cell.method} ${cell.name}`, async () => {
      const got = {} as Record<Caller, number>;
      for (const caller of CALLERS) {
        const res = await server.api.request(cell.method, cell.path(), {
          token: tokens[caller],
          body: cell.body?.(),
        });
        got[caller] = res.status;
      }
      expect(got).toEqual(cell.expect);
    });
  }

  it('lists only what each scope covers', async () => {
    const visibleOrgs = async (caller: Caller) => {
      const res = await server.api.get('/orgs/', tokens[caller]);
      expect(res.status).toBe(200);
      return (res.body.data as Array<{ id: string }>).map((o) => o.id).sort();
    };
    expect(await visibleOrgs('system')).toEqual([ids.orgA, ids.orgB, ids.orgC].sort());
    expect(await visibleOrgs('partnerAll')).toEqual([ids.orgA, ids.orgB].sort());
    expect(await visibleOrgs('partnerSelected')).toEqual([ids.orgA]);
    expect(await visibleOrgs('partnerNone')).toEqual([]);
    expect(await visibleOrgs('orgA')).toEqual([ids.orgA]);

    const siteOrgs = async (caller: Caller) => {
      const res = await server.api.get('/orgs/sites?limit=100', tokens[caller]);
      expect(res.status).toBe(200);
      return [...new Set((res.body.data as Array<{ orgId: string }>).map((s) => s.orgId))].sort();
    };
    expect(await siteOrgs('partnerSelected')).toEqual([ids.orgA]);
    expect(await siteOrgs('partnerNone')).toEqual([]);
    expect(await siteOrgs('orgA')).toEqual([ids.orgA]);

    const keyOrgs = async (caller: Caller, path: string) => {
      const res = await server.api.get(`${path}?limit=100`, tokens[caller]);
      expect(res.status).toBe(200);
      return [...new Set((res.body.data as Array<{ orgId: string }>).map((k) => k.orgId))].sort();
    };
    expect(await keyOrgs('partnerSelected', '/api-keys')).toEqual([ids.orgA]);
    expect(await keyOrgs('orgA', '/api-keys')).toEqual([ids.orgA]);
    expect(await keyOrgs('partnerNone', '/enrollment-keys')).toEqual([]);
    expect(await keyOrgs('partnerAll', '/enrollment-keys')).toEqual([ids.orgA, ids.orgB].sort());

    const userEmails = async (caller: Caller) => {
      const res = await server.api.get('/users?limit=100', tokens[caller]);
      return {
        status: res.status,
        emails: ((res.body?.data ?? []) as Array<{ email: string }>).map((u) => u.email),
      };
    };
    const orgView = await userEmails('orgA');
    expect(orgView.status).toBe(200);
    expect(orgView.emails).toContain('admin@alpha.test');
    expect(orgView.emails).not.toContain('tech@bravo.test');
    const partnerView = await userEmails('partnerAll');
    expect(partnerView.emails).toEqual(expect.arrayContaining(['all@northwind.test', 'tech@bravo.test']));
    expect(partnerView.emails).not.toContain('tech@charlie.test');
    expect((await userEmails('partnerSelected')).status).toBe(403);
  });

  it('limits an organization user with a site restriction to those sites', async () => {
    const siteA2 = insertSite(server, ids.orgA, 'Branch clinic');
    const restricted = await insertOrgUser(server, ids.orgA, ROLES.orgReadOnly, 'branch@alpha.test');
    server.context.db
      .prepare('UPDATE organization_users SET site_ids = ? WHERE user_id = ?')
      .run(JSON.stringify([siteA2]), restricted);
    const token = await mfaToken(server, 'branch@alpha.test', PASSWORD);
    const listed = await server.api.get('/orgs/sites?limit=100', token);
    expect((listed.body.data as Array<{ id: string }>).map((site) => site.id)).toEqual([siteA2]);
    expect((await server.api.get(`/orgs/sites/${siteA2}`, token)).status).toBe(200);
    const other = await server.api.get(`/orgs/sites/${ids.siteA}`, token);
    expect(other.status).toBe(403);
    expect(other.body.error).toBe('Access to this site denied');
    // The unrestricted organization administrator still sees both sites of the organization.
    const all = await server.api.get(`/orgs/sites?orgId=${ids.orgA}&limit=100`, tokens.orgA);
    expect((all.body.data as Array<{ id: string }>).map((site) => site.id).sort()).toEqual(
      [ids.siteA, siteA2].sort(),
    );
  });
});
