import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditWorld, entry, idsOf, writeEntries, type AuditWorld } from '../support/audit-world';

// Spec 2 "Audit logs": the flat and full lists, one entry and search, their filters and scoping, under
// /audit-logs and the catalog's /audit prefix.

let w: AuditWorld;
beforeAll(async () => {
  w = await auditWorld();
  const { orgA, orgB, orgX, ids } = w;
  await writeEntries(w.server, [
    entry(orgA, ids.orgAdmin, {
      actorEmail: 'admin@contoso.test',
      action: 'device.delete',
      resourceName: 'CONTOSO-PC-7',
      sessionId: 'session-one',
      details: { before: { hostname: 'old' }, after: { hostname: 'new' }, note: 'Quarterly Cleanup' },
    }),
    entry(orgA, ids.orgReader, {
      actorEmail: 'reader@contoso.test',
      action: 'user.login',
      resourceType: 'user',
      resourceName: 'reader@contoso.test',
      result: 'failure',
      errorMessage: 'bad password',
    }),
    entry(orgA, ids.orgAdmin, {
      actorEmail: 'admin@contoso.test',
      action: 'data.export',
      resourceType: 'audit_log',
      resourceName: '=HYPERLINK("x")',
    }),
    entry(orgB, ids.partnerAdmin, {
      actorEmail: 'boss@acme.test',
      action: 'policy.update',
      resourceType: 'policy',
      resourceName: 'Fabrikam baseline',
      result: 'denied',
    }),
    entry(orgX, ids.otherAdmin, {
      actorEmail: 'boss@other.test',
      action: 'device.delete',
      resourceName: 'INITECH-PC-1',
      details: { note: 'Quarterly Cleanup' },
    }),
  ]);
}, 60_000);
afterAll(() => w.server.dispose());

const get = (path: string, token: string) => w.server.api.get(path, token);

describe('lists', () => {
  it('answers the flat format with totalPages, and the full format with role and session', async () => {
    const flat = await get(`/audit-logs?orgId=${w.orgA}&limit=2`, w.tokens.partnerAdmin);
    expect(flat.status).toBe(200);
    expect(flat.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    const deleted = (await get(`/audit-logs?orgId=${w.orgA}&action=device.delete`, w.tokens.partnerAdmin))
      .body.entries[0];
    expect(deleted).toEqual({
      id: expect.any(String),
      timestamp: expect.any(String),
      action: 'device.delete',
      resource: 'CONTOSO-PC-7',
      resourceType: 'device',
      details: expect.objectContaining({ note: 'Quarterly Cleanup' }),
      ipAddress: '198.51.100.7',
      userAgent: 'vitest',
      sessionId: 'session-one',
      user: {
        name: 'admin',
        email: 'admin@contoso.test',
        role: 'Organization Administrator',
        department: null,
      },
      changes: { before: { hostname: 'old' }, after: { hostname: 'new' } },
    });
    const full = await get(`/audit-logs/logs?orgId=${w.orgA}&action=device.delete`, w.tokens.orgAdmin);
    expect(full.body.data).toEqual([
      expect.objectContaining({
        user: {
          id: w.ids.orgAdmin,
          name: 'admin',
          email: 'admin@contoso.test',
          role: 'Organization Administrator',
        },
        resource: { type: 'device', id: null, name: 'CONTOSO-PC-7' },
        category: 'device',
        result: 'success',
        orgId: w.orgA,
        actorType: 'user',
        sessionId: 'session-one',
      }),
    ]);
  });

  it('keeps the role the actor held when the entry was written', async () => {
    w.server.context.db
      .prepare('UPDATE organization_users SET role_id = ? WHERE user_id = ?')
      .run('00000000-0000-4000-8000-000000000004', w.ids.orgReader);
    const body = (await get(`/audit-logs/logs?user=reader@contoso&action=user.login`, w.tokens.orgAdmin))
      .body;
    expect(body.data[0].user.role).toBe('Organization Read Only');
    w.server.context.db
      .prepare('UPDATE organization_users SET role_id = ? WHERE user_id = ?')
      .run('00000000-0000-4000-8000-000000000005', w.ids.orgReader);
  });

  it('filters by user, action, resource, result, category, organization and time, case-insensitively', async () => {
    const t = w.tokens.partnerAdmin;
    const count = async (q: string) =>
      (await get(`/audit-logs/logs?${q}`, t)).body.pagination.total as number;
    const acme = await count('action=device.delete');
    expect(acme).toBe(1);
    expect(await count('user=ADMIN@CONTOSO')).toBe(2);
    expect(await count('user=boss')).toBeGreaterThanOrEqual(1);
    expect(await count('resource=fabrikam%20BASELINE')).toBe(1);
    expect(await count('resource=audit_log')).toBeGreaterThanOrEqual(1);
    expect(await count('result=denied')).toBe(1);
    expect(await count('category=compliance')).toBe(1);
    expect(await count('category=authentication&result=failure')).toBe(1);
    expect(await count(`orgId=${w.orgB}`)).toBe(1);
    const future = new Date(Date.now() + 3600_000).toISOString();
    expect(await count(`from=${encodeURIComponent(future)}`)).toBe(0);
    expect(await count(`to=${encodeURIComponent(future)}&orgId=${w.orgA}`)).toBe(3);
  });

  it('refuses bad filters with a clear 400 and an organization outside the scope with 404', async () => {
    const t = w.tokens.partnerAdmin;
    expect((await get('/audit-logs/logs?result=maybe', t)).body.error).toMatch(/result must be one of/);
    expect((await get('/audit-logs/logs?category=x', t)).status).toBe(400);
    expect((await get('/audit-logs/logs?from=yesterday', t)).body.error).toBe(
      'from: must be an ISO 8601 date-time',
    );
    expect((await get('/audit-logs/logs?orgId=nope', t)).body.error).toBe('orgId: orgId must be a UUID');
    const other = await get(`/audit-logs/logs?orgId=${w.orgX}`, t);
    expect(other).toMatchObject({ status: 404, body: { error: 'Organization not found' } });
    expect((await get(`/audit?orgId=${w.orgB}`, w.tokens.orgAdmin)).status).toBe(404);
  });
});

describe('scoping', () => {
  it("shows a partner its managed organizations' entries and never another partner's", async () => {
    const acme = idsOf((await get('/audit-logs/logs?limit=100', w.tokens.partnerAdmin)).body);
    const other = idsOf((await get('/audit-logs/logs?limit=100', w.tokens.otherAdmin)).body);
    const initech = (
      w.server.context.db.prepare('SELECT id FROM audit_logs WHERE org_id = ?').all(w.orgX) as Array<{
        id: string;
      }>
    ).map((r) => r.id);
    expect(initech.length).toBeGreaterThan(0);
    expect(acme.filter((id) => initech.includes(id))).toEqual([]);
    expect(other).toEqual(expect.arrayContaining(initech));
    const orgUser = (await get('/audit-logs/logs?limit=100', w.tokens.orgReader)).body.data as Array<{
      orgId: string;
    }>;
    expect(orgUser.length).toBeGreaterThan(0);
    expect(orgUser.every((e) => e.orgId === w.orgA)).toBe(true);
  });

  it('answers one entry in full format, 404 when missing or outside the scope', async () => {
    const [mine] = (await get(`/audit-logs/logs?orgId=${w.orgA}&action=device.delete`, w.tokens.orgAdmin))
      .body.data as Array<{ id: string }>;
    const one = await get(`/audit-logs/logs/${mine!.id}`, w.tokens.orgReader);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: mine!.id, action: 'device.delete', category: 'device' });
    expect((await get(`/audit/logs/${mine!.id}`, w.tokens.system)).body.id).toBe(mine!.id);
    const theirs = (
      w.server.context.db.prepare('SELECT id FROM audit_logs WHERE org_id = ? LIMIT 1').get(w.orgX) as {
        id: string;
      }
    ).id;
    for (const path of [
      `/audit-logs/logs/${theirs}`,
      '/audit-logs/logs/00000000-0000-4000-8000-000000000000',
    ]) {
      expect(await get(path, w.tokens.partnerAdmin)).toMatchObject({
        status: 404,
        body: { error: 'Audit entry not found' },
      });
    }
    expect((await get(`/audit-logs/logs/${mine!.id}`, w.tokens.otherAdmin)).status).toBe(404);
  });
});

describe('search', () => {
  it('needs q, and matches action, actor email, resource and details case-insensitively AND the filters', async () => {
    const t = w.tokens.partnerAdmin;
    expect(await get('/audit-logs/search', t)).toMatchObject({
      status: 400,
      body: { error: 'q: q is required' },
    });
    expect((await get('/audit-logs/search?q=', t)).body.error).toBe('q: q must be at least 1 character');
    const hits = async (q: string, extra = '') =>
      (
        (await get(`/audit-logs/search?q=${encodeURIComponent(q)}${extra}`, t)).body.data as Array<{
          action: string;
          resource: { name: string };
        }>
      ).map((e) => `${e.action} ${e.resource.name}`);
    expect(await hits('quarterly cleanup')).toEqual(['device.delete CONTOSO-PC-7']);
    expect(await hits('CONTOSO-pc')).toEqual(['device.delete CONTOSO-PC-7']);
    expect(await hits('ADMIN@contoso', '&action=data')).toEqual(['data.export =HYPERLINK("x")']);
    expect(await hits('fabrikam base')).toEqual(['policy.update Fabrikam baseline']);
    expect(await hits('baseline', `&orgId=${w.orgA}`)).toEqual([]);
    // One and two characters use LIKE (below a trigram), still case-insensitive.
    expect(await hits('=H')).toEqual(['data.export =HYPERLINK("x")']);
    expect((await hits('%')).length).toBe(0);
    // Quotes and FTS syntax are text, not query operators.
    expect(await hits('"x")')).toEqual(['data.export =HYPERLINK("x")']);
    expect(await hits('OR device')).toEqual([]);
    // SQLite would read a pattern only up to a NUL character, widening the match: refused.
    expect(await get('/audit-logs/search?q=%00abc', t)).toMatchObject({
      status: 400,
      body: { error: 'q: q must not contain NUL characters' },
    });
    expect((await get('/audit-logs/logs?user=a%00', t)).body.error).toBe(
      'user: user must not contain NUL characters',
    );
    // Another partner's entry with the same words stays invisible.
    const otherSees = (await get('/audit/search?q=quarterly', w.tokens.otherAdmin)).body.data as Array<{
      resource: { name: string };
    }>;
    expect(otherSees.map((e) => e.resource.name)).toEqual(['INITECH-PC-1']);
  });
});

describe('the /audit catalog aliases', () => {
  it('serve the same answers as /audit-logs', async () => {
    const t = w.tokens.partnerAdmin;
    for (const [a, b] of [
      ['/audit-logs', '/audit'],
      ['/audit-logs/logs', '/audit/logs'],
      ['/audit-logs/search?q=device', '/audit/search?q=device'],
    ] as const) {
      const [left, right] = await Promise.all([get(a, t), get(b, t)]);
      expect(right.status).toBe(200);
      expect(right.body).toEqual(left.body);
    }
  });

  it('need audit:read: a user without it is refused', async () => {
    const { insertOrgRole, insertOrgUser, signedToken } = await import('../support/seed');
    const role = insertOrgRole(w.server, w.orgA, 'No audit', [['devices', 'view']]);
    await insertOrgUser(w.server, w.orgA, role, 'noaudit@contoso.test');
    const token = await signedToken(w.server, 'noaudit@contoso.test');
    for (const path of ['/audit', '/audit-logs/logs', '/audit/search?q=x', '/audit/stats'])
      expect((await get(path, token)).status).toBe(403);
  });
});
